import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { grpoClipInputs } from '../gpu/grpo-cases.ts'
import { maxRelToPeak, numericGrad } from './f64-reference.ts'
import { grpoLoss } from './grpo.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { fromFloat, qtensor, toFloat } from './tensor.ts'

const rand = seededRandom(71)

/** The clipped surrogate and its gradient in f64 (the gradient is analytic: piecewise r·A). */
function grpoF64(
  lp: Float64Array,
  old: Float64Array,
  adv: Float64Array,
  mask: Uint8Array,
  epsLow: number,
  epsHigh: number,
) {
  const n = mask.reduce((s, m) => s + m, 0)
  let loss = 0
  const grad = new Float64Array(lp.length)
  lp.forEach((l, i) => {
    if (!mask[i]) return
    const r = Math.exp(l - old[i]!)
    const a = adv[i]!
    const clipped = Math.min(Math.max(r, 1 - epsLow), 1 + epsHigh)
    loss -= Math.min(r * a, clipped * a) / n
    const active = a >= 0 ? r <= 1 + epsHigh : r >= 1 - epsLow
    if (active) grad[i] = (-a * r) / n
  })
  return { loss, grad }
}

describe('GRPO clipped-ratio loss vs f64', () => {
  it.each([
    ['symmetric', 0.2, undefined],
    ['clip-higher', 0.2, 0.28],
  ] as const)(
    '%s: loss within 1e-6, gradient within 1e-6 of the peak, masked tokens get 0',
    (_, low, high) => {
      const t = 64
      const lp = fromFloat([t], -24, uniformArray(rand, t, -4, -0.1))
      const old = fromFloat(
        [t],
        -24,
        toFloat(lp).map((x) => x + (rand() - 0.5) * 0.6),
      )
      const adv = fromFloat([t], -24, uniformArray(rand, t, -2, 2))
      const mask = Uint8Array.from({ length: t }, (_, i) => (i % 5 === 0 ? 0 : 1))
      const { loss, dLogProbs } = grpoLoss({
        logProbs: lp,
        oldLogProbs: old,
        advantages: adv,
        mask,
        clipEpsQ30: low * 2 ** 30,
        ...(high === undefined ? {} : { clipEpsHighQ30: high * 2 ** 30 }),
      })
      const want = grpoF64(toFloat(lp), toFloat(old), toFloat(adv), mask, low, high ?? low)
      expect(Math.abs(toFloat(loss)[0]! - want.loss)).toBeLessThan(1e-6)
      expect(maxRelToPeak(toFloat(dLogProbs), want.grad)).toBeLessThan(1e-6)
      expect(dLogProbs.data[0]).toBe(0)
      // both clipped branches were exercised
      const r = toFloat(lp).map((x, i) => Math.exp(x - toFloat(old)[i]!))
      expect(r.some((x) => x > 1 + (high ?? low)) && r.some((x) => x < 1 - low)).toBe(true)
    },
  )

  it('rejects mismatched inputs', () => {
    const a = fromFloat([2], -24, [0, 0])
    const b = fromFloat([2], -20, [0, 0])
    expect(() =>
      grpoLoss({ logProbs: a, oldLogProbs: b, advantages: a, mask: Uint8Array.of(1, 1), clipEpsQ30: 0 }),
    ).toThrow(/exponent/)
  })
})

/** The KL penalty's f64 terms: β·mean(k3) with k3 = e^d − d − 1, d = ref − logp, and β(1 − e^d)/N. */
function klF64(lp: Float64Array, ref: Float64Array, mask: Uint8Array, beta: number) {
  const n = mask.reduce((s, m) => s + m, 0)
  let kl = 0
  const grad = new Float64Array(lp.length)
  lp.forEach((l, i) => {
    if (!mask[i]) return
    const d = ref[i]! - l
    kl += (Math.exp(d) - d - 1) / n
    grad[i] = (beta * (1 - Math.exp(d))) / n
  })
  return { kl, grad }
}

/** A batch whose log-ratios ref − logp cover the penalty's whole range [−64, 4], mostly near 0. */
function klBatch(t: number, lpExp: number) {
  const lp = fromFloat([t], lpExp, uniformArray(rand, t, -1.5, -0.05))
  const old = fromFloat(
    [t],
    lpExp,
    toFloat(lp).map((x) => x + (rand() - 0.5) * 0.6),
  )
  const d = uniformArray(rand, t, -0.5, 0.5)
  d.set([-64, 4, -20, 3.9, -5, 2], 0)
  const ref = fromFloat(
    [t],
    lpExp,
    toFloat(lp).map((x, i) => x + d[i]!),
  )
  const adv = fromFloat([t], -24, uniformArray(rand, t, -2, 2))
  const mask = Uint8Array.from({ length: t }, (_, i) => (i % 5 === 4 ? 0 : 1))
  return {
    logProbs: lp,
    oldLogProbs: old,
    refLogProbs: ref,
    advantages: adv,
    mask,
    clipEpsQ30: 0.2 * 2 ** 30,
  }
}

describe('GRPO KL penalty (k3 against a reference policy)', () => {
  it.each([
    [-24, 0.04],
    [-24, 1.5],
    [-16, 0.1],
    [-28, 0.04],
  ])(
    'log-probs at 2^%i, β %f: loss, mean KL and gradient within 1e-6 of f64 over d ∈ [−64, 4]',
    (lpExp, beta) => {
      const input = { ...klBatch(64, lpExp), klBetaQ30: Math.round(beta * 2 ** 30) }
      const { loss, dLogProbs, kl } = grpoLoss(input)
      const [lp, old, ref, adv] = [
        input.logProbs,
        input.oldLogProbs,
        input.refLogProbs,
        input.advantages,
      ].map(toFloat)
      const clip = grpoF64(lp!, old!, adv!, input.mask, 0.2, 0.2)
      const pen = klF64(lp!, ref!, input.mask, input.klBetaQ30 / 2 ** 30)
      expect(pen.kl).toBeGreaterThan(1) // the range's ends were counted
      expect(Math.abs(toFloat(kl)[0]! - pen.kl)).toBeLessThan(1e-6)
      expect(Math.abs(toFloat(loss)[0]! - (clip.loss + (input.klBetaQ30 / 2 ** 30) * pen.kl))).toBeLessThan(
        1e-6,
      )
      const want = clip.grad.map((g, i) => g + pen.grad[i]!)
      expect(maxRelToPeak(toFloat(dLogProbs), want)).toBeLessThan(1e-6)
      expect(dLogProbs.data[4]).toBe(0) // masked out
    },
  )

  it('the gradient matches central differences of the f64 loss within 1e-6 of the peak', () => {
    const input = { ...klBatch(40, -24), klBetaQ30: Math.round(0.3 * 2 ** 30) }
    const [old, ref, adv] = [input.oldLogProbs, input.refLogProbs, input.advantages].map(toFloat)
    const lossF64 = (lp: Float64Array) =>
      grpoF64(lp, old!, adv!, input.mask, 0.2, 0.2).loss + 0.3 * klF64(lp, ref!, input.mask, 0.3).kl
    const numeric = numericGrad(lossF64, toFloat(input.logProbs))
    expect(maxRelToPeak(toFloat(grpoLoss(input).dLogProbs), numeric)).toBeLessThan(1e-6)
  })

  it('saturates d beyond [−64, 4]: k3 and the gradient take their value at the bound', () => {
    const one = (d: number) =>
      grpoLoss({
        logProbs: fromFloat([1], -24, [-20]),
        oldLogProbs: fromFloat([1], -24, [-20]),
        refLogProbs: fromFloat([1], -24, [-20 + d]),
        advantages: fromFloat([1], -24, [0]),
        mask: Uint8Array.of(1),
        clipEpsQ30: 0,
        klBetaQ30: 2 ** 29,
      })
    for (const [beyond, bound] of [
      [4.5, 4],
      [40, 4],
      [-100, -64],
    ]) {
      const [b, e] = [one(beyond!), one(bound!)]
      expect([b.kl.data[0], b.loss.data[0], b.dLogProbs.data[0]]).toEqual([
        e.kl.data[0],
        e.loss.data[0],
        e.dLogProbs.data[0],
      ])
    }
    // still pulled towards the reference: above it (d < 0) the gradient is positive, below it negative
    expect(toFloat(one(-100).dLogProbs)[0]).toBeCloseTo(0.5, 6)
    expect(toFloat(one(40).dLogProbs)[0]).toBeCloseTo(0.5 * (1 - Math.exp(4)), 4)
    expect(toFloat(one(-100).kl)[0]).toBeCloseTo(63, 6)
  })

  it('β = 0 or omitted leaves the surrogate bit-identical to the loss before the penalty existed', () => {
    const hash = createHash('sha256')
    for (const [, input] of grpoClipInputs(seededRandom(71))) {
      const plain = grpoLoss(input)
      const zero = grpoLoss({ ...input, refLogProbs: input.oldLogProbs, klBetaQ30: 0 })
      expect([...zero.loss.data, ...zero.dLogProbs.data]).toEqual([
        ...plain.loss.data,
        ...plain.dLogProbs.data,
      ])
      expect([...plain.kl.data, ...zero.kl.data]).toEqual([0, 0])
      for (const out of [plain.loss, plain.dLogProbs])
        hash.update(new Uint8Array(out.data.buffer)).update(String(out.exp))
    }
    // the bits of these cases before the penalty was added
    expect(hash.digest('hex')).toBe('beb0d4b2e8dc2258c7fbf517defa5c49b594f5c678bdffe7e7ada277eba1e506')
  })

  it('k3 is never negative, even where e^d rounds close to 1 + d', () => {
    const t = 41
    const lp = fromFloat([t], -24, new Array<number>(t).fill(-1))
    const ref = qtensor(
      [t],
      -24,
      lp.data.map((v, i) => v + (i - 20) * 37),
    )
    const out = grpoLoss({
      logProbs: lp,
      oldLogProbs: lp,
      refLogProbs: ref,
      advantages: qtensor([t], -24),
      mask: new Uint8Array(t).fill(1),
      clipEpsQ30: 0,
      klBetaQ30: 2 ** 30,
    })
    expect(out.kl.data[0]).toBeGreaterThanOrEqual(0)
  })

  it('rejects a penalty without a reference, a reference at another exponent, and a fractional β', () => {
    const a = fromFloat([2], -24, [0, 0])
    const base = { logProbs: a, oldLogProbs: a, advantages: a, mask: Uint8Array.of(1, 1), clipEpsQ30: 0 }
    expect(() => grpoLoss({ ...base, klBetaQ30: 1 })).toThrow(/needs refLogProbs/)
    expect(() => grpoLoss({ ...base, refLogProbs: fromFloat([2], -20, [0, 0]), klBetaQ30: 1 })).toThrow(
      /exponent/,
    )
    expect(() => grpoLoss({ ...base, refLogProbs: a, klBetaQ30: 0.04 * 2 ** 30 })).toThrow(/integer/)
  })
})
