import { describe, expect, it } from 'vitest'
import { maxRelToPeak } from './f64-reference.ts'
import { grpoLoss } from './grpo.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { fromFloat, toFloat } from './tensor.ts'

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
