import { EXP_TAYLOR, LN2_Q30, LOG2E_Q30 } from './exp-constants.ts'
import { mulRne, rne, sat32 } from './rounding.ts'
import { expInDomain, expWasm } from './wasm/kernels.ts'

export { LN2_Q30, LOG2E_Q30 } from './exp-constants.ts'
const EXP_TAYLOR_Q30 = Float64Array.from(EXP_TAYLOR)

/**
 * Round-half-even of acc·u·2^-30 for 0 ≤ acc ≤ 2^30 and 0 ≤ u = uh·2^15 + ul < 2^30 (0 ≤ ul < 2^15):
 * mulRne(acc, u, 30) with u split once per polynomial instead of at every Horner step. Both partial
 * products stay below 2^47 and the remainder below 2^53, so every step is exact.
 */
function mulQ30Split(acc: number, uh: number, ul: number): number {
  const ph = acc * uh
  const q1 = Math.floor(ph * 2 ** -15)
  const rem = (ph - q1 * 2 ** 15) * 2 ** 15 + acc * ul
  const q2 = Math.floor(rem * 2 ** -30)
  const r = rem - q2 * 2 ** 30
  const q = q1 + q2
  return r > 2 ** 29 || (r === 2 ** 29 && q % 2 !== 0) ? q + 1 : q
}

/** 2^-g for g ∈ [0, 1) given in Q24, as Q30 in (2^29, 2^30]: Horner on e^-(g·ln 2); exactly 1 at g = 0. */
function exp2NegQ30(g: number): number {
  const u = mulRne(g, LN2_Q30, 24) // in [0, ln 2·2^30)
  const uh = Math.floor(u * 2 ** -15)
  const ul = u - uh * 2 ** 15
  let acc = EXP_TAYLOR_Q30[10]!
  // every partial sum of e^-u's Taylor series is positive on [0, ln 2), so acc stays in [0, 2^30]
  for (let n = 9; n >= 0; n--) acc = EXP_TAYLOR_Q30[n]! - mulQ30Split(acc, uh, ul)
  return acc
}

/**
 * e^(x·2^xExp) as an integer at outExp, saturated; |x| < 2^32 (softmax differences x − max).
 * A caller scaling the argument by c passes log2eQ30 = round(log2(e)·c·2^30) instead of the default. x·log2(e) is first rounded to Q24 (|·| < 128,
 * so inputs below −88.7 give e^-88.7 — zero at any useful outExp). With y = n − g, n = ⌈y⌉ and
 * g ∈ [0, 1): the integer part becomes a shift, 2^-g goes through the polynomial, and integer
 * powers of two (e^0 = 1 in particular) come out exact.
 */
export function expFixed(x: number, xExp: number, outExp: number, log2eQ30 = LOG2E_Q30): number {
  return expInDomain(x, xExp, log2eQ30)
    ? expWasm(x, xExp, outExp, log2eQ30)
    : expFixedTs(x, xExp, outExp, log2eQ30)
}

/** expFixed's definition in doubles: where the wasm kernel (native i64, the same bits) is not available. */
export function expFixedTs(x: number, xExp: number, outExp: number, log2eQ30 = LOG2E_Q30): number {
  const y = sat32(mulRne(x, log2eQ30, 6 - xExp))
  const n = Math.ceil(y / 2 ** 24)
  const shift = 30 + outExp - n
  // 2^-g ≤ 2^30 rounds to 0 at any shift ≥ 31 (2^30 at 31 is a tie, to the even 0): skip the polynomial
  if (shift >= 31) return 0
  const p = exp2NegQ30(n * 2 ** 24 - y)
  return sat32(rne(p, shift))
}
