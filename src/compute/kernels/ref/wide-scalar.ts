/**
 * Host-side scalars of the optimizer (learning rate, bias corrections, clip factors) in bigint fixed
 * point at 2^-62. Plain integer arithmetic, so every JS engine derives the same bits; kernels receive
 * them as (i32 mantissa, exponent) pairs.
 */
export const WIDE_FRAC = 62
export const WIDE_ONE = 1n << 62n

/**
 * A wide scalar (or its decimal text, as receipts hold a gradient norm) as the nearest double: for
 * metrics and charts, never fed back into the arithmetic.
 */
export function wideToFloat(a: bigint | string): number {
  return Number(BigInt(a)) * 2 ** -WIDE_FRAC
}

/** A non-negative float as floor(x·2^62): exact, because x·2^62 only changes the float's exponent. */
export function wideFromFloat(x: number): bigint {
  if (!(x >= 0) || !Number.isFinite(x))
    throw new RangeError(`expected a finite non-negative number, got ${x}`)
  return BigInt(Math.floor(x * 2 ** WIDE_FRAC))
}

export function wideMul(a: bigint, b: bigint): bigint {
  return (a * b) >> 62n
}

export function wideDiv(a: bigint, b: bigint): bigint {
  return (a << 62n) / b
}

/** a^n by squaring (floors after each product). */
export function widePow(a: bigint, n: number): bigint {
  let result = WIDE_ONE
  let base = a
  for (let e = n; e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) result = wideMul(result, base)
    base = wideMul(base, base)
  }
  return result
}

/** floor(√n) for n ≥ 0 by Newton's method on bigints. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2))
  for (;;) {
    const y = (x + n / x) >> 1n
    if (y >= x) return x
    x = y
  }
}

export function wideSqrt(a: bigint): bigint {
  return isqrt(a << 62n)
}

/** Rounds a wide scalar to an i32 mantissa with 30 significant bits and its exponent. */
export function wideToMantissa(a: bigint): { m: number; exp: number } {
  if (a === 0n) return { m: 0, exp: 0 }
  const shift = Math.max(0, a.toString(2).length - 30)
  return { m: Number(a >> BigInt(shift)), exp: shift - WIDE_FRAC }
}
