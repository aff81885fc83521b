import { describe, expect, it } from 'vitest'
import { WEIGHT_EXP, adamInit, adamStep, type AdamConfig } from './adam.ts'
import { maxAbsDiff } from './f64-reference.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { fromFloat, toFloat } from './tensor.ts'

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
