import { describe, expect, it } from 'vitest'
import { WEIGHT_EXP, adamInit, adamStep, adamStepExact, type AdamConfig, type AdamState } from './adam.ts'
import { maxAbsDiff } from './f64-reference.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { fromFloat, qtensor, toFloat, type QTensor } from './tensor.ts'

const rand = seededRandom(51)

/** PyTorch's Adam/AdamW in f64. */
function adamF64(w: Float64Array, grads: Float64Array[], c: AdamConfig): Float64Array {
  const m = new Float64Array(w.length)
  const v = new Float64Array(w.length)
  const out = Float64Array.from(w)
  grads.forEach((g, step) => {
    const t = step + 1
    for (let i = 0; i < w.length; i++) {
      out[i]! -= c.lr * c.weightDecay * out[i]!
      m[i] = c.beta1 * m[i]! + (1 - c.beta1) * g[i]!
      v[i] = c.beta2 * v[i]! + (1 - c.beta2) * g[i]! ** 2
      const mHat = m[i]! / (1 - c.beta1 ** t)
      const vHat = v[i]! / (1 - c.beta2 ** t)
      out[i]! -= (c.lr * mHat) / (Math.sqrt(vHat) + c.eps)
    }
  })
  return out
}

function run(config: AdamConfig, gradScale: number, steps: number) {
  const n = 64
  const w0 = fromFloat([n], WEIGHT_EXP, uniformArray(rand, n, -1, 1))
  const grads = Array.from({ length: steps }, () => uniformArray(rand, n, -gradScale, gradScale))
  let w = w0
  let state = adamInit([n])
  for (const g of grads) ({ w, state } = adamStep(w, fromFloat([n], -40, g), state, config))
  return {
    w0: toFloat(w0),
    w: toFloat(w),
    want: adamF64(
      toFloat(w0),
      grads.map((g) => toFloat(fromFloat([n], -40, g))),
      config,
    ),
    state,
  }
}

describe('Adam/AdamW vs f64', () => {
  const base: AdamConfig = { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 }

  it('tracks f64 within 2^-24 per step over 20 steps (lr 1e-3)', () => {
    const { w, want } = run(base, 1, 20)
    expect(maxAbsDiff(w, want)).toBeLessThan(20 * 2 ** -24)
  })

  it('moves weights at lr 1e-6 with tiny gradients (1e-7): the Q16.16 failure modes do not occur', () => {
    const { w0, w, want, state } = run({ ...base, lr: 1e-6 }, 1e-7, 10)
    const moved = w.filter((x, i) => x !== w0[i]).length
    expect(moved).toBe(w.length)
    // direction of the update agrees with f64
    let dot = 0
    let na = 0
    let nb = 0
    w.forEach((x, i) => {
      const [a, b] = [x - w0[i]!, want[i]! - w0[i]!]
      dot += a * b
      na += a * a
      nb += b * b
    })
    expect(dot / Math.sqrt(na * nb)).toBeGreaterThan(0.99)
    // √v kept its own exponent: no element has m ≠ 0 with √v = 0
    state.m.data.forEach((m, i) => expect(m !== 0 && state.r.data[i] === 0).toBe(false))
  })

  it('applies decoupled weight decay', () => {
    const { w, want } = run({ ...base, weightDecay: 0.1, lr: 1e-2 }, 1, 5)
    expect(maxAbsDiff(w, want)).toBeLessThan(10 * 2 ** -24)
  })

  it('saturates weights at ±(2^31−1)·2^-24 instead of wrapping', () => {
    const w = fromFloat([1], WEIGHT_EXP, [128 - 2 ** -24])
    const g = fromFloat([1], -20, [-1])
    const { w: after } = adamStep(w, g, adamInit([1]), { ...base, lr: 1 })
    expect(after.data[0]).toBe(2 ** 31 - 1)
  })
})

describe('adamStep (doubles) vs adamStepExact (BigInt on every element)', () => {
  const configs: AdamConfig[] = [
    { lr: 5e-4, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01 },
    { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 },
    { lr: 1e-2, beta1: 0.5, beta2: 0.9, eps: 1e-3, weightDecay: 0.1 },
    { lr: 1, beta1: 0.99, beta2: 0.9999, eps: 0, weightDecay: 0 },
  ]
  const ints = (n: number, bound: number) =>
    Int32Array.from({ length: n }, () => Math.round((rand() * 2 - 1) * bound))
  // values spanning every size, small integers (ties of every rounding are frequent among them),
  // saturated extremes, zeros
  const mixed = (n: number): Int32Array =>
    Int32Array.from({ length: n }, (_, i) => {
      const kind = i % 5
      if (kind === 0) return Math.round((rand() * 2 - 1) * 2 ** (rand() * 31))
      if (kind === 1) return Math.round((rand() * 2 - 1) * 8)
      if (kind === 2) return [0, 2 ** 31 - 1, -(2 ** 31 - 1), 1, -1][Math.floor(rand() * 5)]!
      return Math.round((rand() * 2 - 1) * (2 ** 31 - 1))
    })
  const same = (a: { w: QTensor; state: AdamState }, b: { w: QTensor; state: AdamState }) => {
    expect([a.state.m.exp, a.state.r.exp, a.state.step]).toEqual([b.state.m.exp, b.state.r.exp, b.state.step])
    expect(Buffer.from(a.w.data.buffer).equals(Buffer.from(b.w.data.buffer))).toBe(true)
    expect(Buffer.from(a.state.m.data.buffer).equals(Buffer.from(b.state.m.data.buffer))).toBe(true)
    expect(Buffer.from(a.state.r.data.buffer).equals(Buffer.from(b.state.r.data.buffer))).toBe(true)
  }

  it('gives every bit over 12 steps of varied gradients, exponents and configs', () => {
    const n = 4000
    for (const config of configs) {
      let w = qtensor([n], WEIGHT_EXP, mixed(n))
      let state = adamInit([n])
      for (let step = 0; step < 12; step++) {
        // gradient exponents far apart from step to step: m and g at very different exponents
        const g = qtensor(
          [n],
          -52 + Math.floor(rand() * 40),
          step % 3 === 0 ? mixed(n) : ints(n, 2 ** (1 + rand() * 30)),
        )
        const fast = adamStep(w, g, state, config)
        const exact = adamStepExact(w, g, state, config)
        same(fast, exact)
        ;({ w, state } = exact)
      }
    }
  })

  it('gives every bit when m, r and the gradient are small integers at one exponent (ties everywhere)', () => {
    const n = 20000
    for (const config of configs) {
      const w = qtensor([n], WEIGHT_EXP, ints(n, 64))
      const state: AdamState = {
        step: 3,
        m: qtensor([n], -30, ints(n, 16)),
        r: qtensor([n], -30, ints(n, 16).map(Math.abs)),
      }
      const g = qtensor([n], -30, ints(n, 16))
      same(adamStep(w, g, state, config), adamStepExact(w, g, state, config))
    }
  })
})
