/**
 * Integer helpers shared by the market maths: every function takes and returns non-negative
 * bigints that fit a uint256, exactly as the Solidity twins (OpenZeppelin `Math.mulDiv` with
 * `Rounding.Floor`/`Rounding.Ceil`, `Math.sqrt`) compute them. No floating point anywhere.
 */
import { fail } from './errors.ts'

export const UINT256_MAX = (1n << 256n) - 1n
export const WAD = 10n ** 18n

export function assertUint256(x: bigint): bigint {
  if (x < 0n) fail('NegativeValue', x)
  if (x > UINT256_MAX) fail('Uint256Overflow', x)
  return x
}

/** ⌊a·b/d⌋ with the full 512-bit product (OpenZeppelin mulDiv); reverts if the result exceeds uint256. */
export function mulDivDown(a: bigint, b: bigint, d: bigint): bigint {
  assertUint256(a)
  assertUint256(b)
  assertUint256(d)
  if (d === 0n) fail('DivisionByZero')
  return assertUint256((a * b) / d)
}

/** ⌈a·b/d⌉ with the full 512-bit product; reverts if the result exceeds uint256. */
export function mulDivUp(a: bigint, b: bigint, d: bigint): bigint {
  assertUint256(a)
  assertUint256(b)
  assertUint256(d)
  if (d === 0n) fail('DivisionByZero')
  const p = a * b
  const q = p / d
  return assertUint256(p % d === 0n ? q : q + 1n)
}

/** ⌈a/b⌉ */
export function divUp(a: bigint, b: bigint): bigint {
  return mulDivUp(a, 1n, b)
}

/** ⌊√x⌋, exact (Newton's iteration from an over-estimate, which decreases monotonically to the floor). */
export function sqrtDown(x: bigint): bigint {
  assertUint256(x)
  if (x < 2n) return x
  // Start from 2^⌈bits/2⌉ ≥ √x.
  let r = 1n << BigInt((x.toString(2).length + 1) >> 1)
  for (;;) {
    const next = (r + x / r) >> 1n
    if (next >= r) return r
    r = next
  }
}

/** ⌈√x⌉, exact. */
export function sqrtUp(x: bigint): bigint {
  const r = sqrtDown(x)
  return r * r === x ? r : r + 1n
}

/** 10^n as a bigint (n ≥ 0). */
export function pow10(n: number): bigint {
  return 10n ** BigInt(n)
}
