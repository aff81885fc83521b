import { LN2_Q30 } from './exp.ts'
import { bitLength, divRne, mulRne, rne, sat32 } from './rounding.ts'

/** round(2^30/n) for n = 1, 3, …, 11: the atanh series. */
const ATANH_SERIES_Q30 = [1073741824, 357913941, 214748365, 153391689, 119304647, 97612893]
/** round(√2·2^29): mantissas above it are halved so that |z| ≤ 0.1716 below. */
const SQRT2_Q29 = 759250125

/** ln(u·2^uExp) at outExp, saturated. */
export function lnFixed(u: number, uExp: number, outExp: number): number {
  return sat32(rne(lnQ30(u, uExp), 30 + outExp))
}

/**
 * ln(u·2^uExp) in Q30 as an unsaturated integer (|·| < 2^40), for an integer 0 < u < 2^53.
 * u = mant·2^e with mant in [1/√2, √2] (Q29 or Q30); ln(mant) = 2·atanh(z), z = (mant−1)/(mant+1),
 * by a 6-term odd series.
 */
export function lnQ30(u: number, uExp: number): number {
  if (u <= 0) throw new RangeError(`lnFixed: argument must be positive, got ${u}`)
  const k = bitLength(u) - 1
  const m = rne(u, k - 29)
  let e = k + uExp
  let one = 2 ** 29
  if (m > SQRT2_Q29) {
    one = 2 ** 30
    e += 1
  }
  const z = divRne(m - one, m + one, 30)
  const w = mulRne(z, z, 30)
  let acc = ATANH_SERIES_Q30[5]!
  for (let i = 4; i >= 0; i--) acc = ATANH_SERIES_Q30[i]! + mulRne(acc, w, 30)
  const lnMant = mulRne(z, acc, 29) // 2·z·acc in Q30
  return lnMant + e * LN2_Q30
}
