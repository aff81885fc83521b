/**
 * Deterministic fixed-point e^x and ln for the LMSR, with one-sided error bounds, written with
 * nothing but uint256 operations (+, −, ·, floor /, shifts, mulDiv) so a Solidity library can
 * reproduce every result bit for bit: each loop runs until its term floors to zero, every division
 * floors, and the constants are listed below.
 *
 * Fixed point: RAY = 1e27 internally and for ln results; e^x results are WAD (1e18) scaled.
 *
 * expUpWad(X): X = x·1e27 with 0 ≤ X ≤ MAX_EXP_INPUT_RAY (130e27), else `ExpInputTooBig`.
 *   Returns an integer ≥ e^x·1e18 (a guaranteed upper bound) and ≤ e^x·1e18·(1 + 1e-24) + 1;
 *   expUpWad(0) = 1e18 exactly.
 *   Method: k = ⌊X/LN2_DOWN⌋, r = X − k·LN2_DOWN ∈ [0, ln2) (r ≥ the exact reduced argument since
 *   LN2_DOWN < ln2); Taylor series of e^r in RAY with floored terms (each term's error ≤ 1.5 ulp,
 *   under 40 terms, so the sum is low by < 61 ulps), plus EXP_ERR_RAY = 200 ulps to turn it into an
 *   upper bound; result = ⌈(sum + EXP_ERR_RAY)·2^k / 1e9⌉. e^130·1e18 ≈ 2.9e74, so twenty of them
 *   still sum far below 2^256.
 *
 * lnRatioDown(num, den), num ≥ den > 0: ln(num/den)·1e27 rounded to a guaranteed lower bound,
 *   at most LN_ERR_RAY (1000 ulps = 1e-24) below the exact value; lnRatioUp adds LN_ERR_RAY.
 *   Method: k = max{k : den·2^k ≤ num}, m = ⌊num·1e27/(den·2^k)⌋ ∈ [1e27, 2e27),
 *   z = ⌊(m − 1e27)·1e27/(m + 1e27)⌋ ∈ [0, 1e27/3), ln m = 2·Σ z^(2j+1)/(2j+1) with floored terms,
 *   result = 2·sum + k·LN2_DOWN. Every step rounds down (m, z, each term, ln2), so the result is a
 *   lower bound; the total shortfall is < 1 + 2.25 + 2·70 + 256 ulps < LN_ERR_RAY.
 */
import { fail } from './errors.ts'
import { assertUint256, mulDivDown, mulDivUp } from './fixed-point.ts'

export const RAY = 10n ** 27n
/** ⌊ln 2 · 1e27⌋ (ln 2 = 0.693147180559945309417232121458…). */
export const LN2_DOWN = 693147180559945309417232121n
/** Largest accepted exponent, RAY-scaled: e^130. */
export const MAX_EXP_INPUT_RAY = 130n * RAY
/** Slack added to the floored Taylor sum of e^r to make it an upper bound (RAY ulps). */
export const EXP_ERR_RAY = 200n
/** Bound on how far lnRatioDown can fall below the exact value (RAY ulps). */
export const LN_ERR_RAY = 1000n

/** Upper bound of e^(X/1e27) in WAD. Throws `ExpInputTooBig` past MAX_EXP_INPUT_RAY. */
export function expUpWad(xRay: bigint): bigint {
  assertUint256(xRay)
  if (xRay > MAX_EXP_INPUT_RAY) fail('ExpInputTooBig', xRay, MAX_EXP_INPUT_RAY)
  // e^0 = 1 exactly (the series below would be exact too, but the slack would still be added):
  // keeps an empty outcome's exponential at exactly 1e18 whether it was never traded or sold back.
  if (xRay === 0n) return 10n ** 18n
  const k = xRay / LN2_DOWN
  const r = xRay - k * LN2_DOWN
  let sum = RAY
  let term = RAY
  for (let i = 1n; ; i++) {
    term = (term * r) / (RAY * i)
    if (term === 0n) break
    sum += term
  }
  return mulDivUp(sum + EXP_ERR_RAY, 1n << k, 10n ** 9n)
}

/** Lower bound of ln(num/den) in RAY, for num ≥ den > 0. */
export function lnRatioDown(num: bigint, den: bigint): bigint {
  assertUint256(num)
  assertUint256(den)
  if (den === 0n || num < den) fail('LnRatioBelowOne', num, den)
  let k = BigInt(num.toString(2).length - den.toString(2).length)
  if (den << k > num) k -= 1n
  const m = mulDivDown(num, RAY, den << k)
  const z = ((m - RAY) * RAY) / (m + RAY)
  const z2 = (z * z) / RAY
  let term = z
  let sum = z
  for (let j = 1n; ; j++) {
    term = (term * z2) / RAY
    if (term === 0n) break
    sum += term / (2n * j + 1n)
  }
  return 2n * sum + k * LN2_DOWN
}

/** Upper bound of ln(num/den) in RAY, for num ≥ den > 0. */
export function lnRatioUp(num: bigint, den: bigint): bigint {
  return lnRatioDown(num, den) + LN_ERR_RAY
}
