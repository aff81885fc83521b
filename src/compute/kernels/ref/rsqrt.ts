import { bitLength, divRne, mulRne, rne, sat32 } from './rounding.ts'

/** Newton steps from the chord guess on [1, 4]: relative error 0.18 → 0.05 → 4e-3 → 2e-5 → 1e-9. */
const NEWTON_STEPS = 5

/**
 * 1/√(u·2^uExp) for an integer 0 < u < 2^53, at outExp (saturated). u is normalised to a Q28
 * mantissa m ∈ [1, 4] with an even binary exponent E, so the result is rsqrt(m)·2^(-E/2).
 */
export function rsqrtFixed(u: number, uExp: number, outExp: number): number {
  if (u <= 0) throw new RangeError(`rsqrtFixed: argument must be positive, got ${u}`)
  let s = bitLength(u) - 30
  if ((s + uExp + 28) % 2 !== 0) s += 1
  const m = rne(u, s)
  const e = s + uExp + 28
  let y = 2 ** 30 - divRne(m - 2 ** 28, 3, 1) // chord 1 − (m−1)/6 in Q30
  for (let i = 0; i < NEWTON_STEPS; i++) {
    const y2 = mulRne(y, y, 30)
    const h = 3 * 2 ** 29 - mulRne(m, y2, 29) // (3 − m·y²)/2 in Q30
    y = mulRne(y, h, 30)
  }
  return sat32(rne(y, 30 + e / 2 + outExp))
}
