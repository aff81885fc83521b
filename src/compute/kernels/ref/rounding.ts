/**
 * Exact integer rounding primitives shared by every reproducible op.
 *
 * Every value here is an integer held in a JS number. Numbers represent integers exactly up to 2^53,
 * so each helper either stays below that bound or splits its operands (as the WGSL kernels split
 * into hi/lo u32 words) so that the result is the exact round-half-even of the exact rational.
 * The WGSL kernels implement the same functions with u32 pairs; exactness makes the bits agree.
 */

/** Largest magnitude an i32 tensor element may hold; the range is symmetric so negation never overflows. */
export const I32_MAX = 2 ** 31 - 1
/** Largest magnitude of an int16 mantissa (the matmul operand format). */
export const I16_MAX = 2 ** 15 - 1
/** Results of mulRne that cannot be represented exactly saturate to ±2^53 (then to i32 by the caller). */
const HUGE = 2 ** 53

/** Clamps to the symmetric i32 range: the defined overflow behaviour of every op (saturation). */
export function sat32(x: number): number {
  return x > I32_MAX ? I32_MAX : x < -I32_MAX ? -I32_MAX : x
}

/** Number of bits of a non-negative integer below 2^53 (0 for 0). */
export function bitLength(n: number): number {
  if (n < 2 ** 32) return 32 - Math.clz32(n)
  return 32 + bitLength(Math.floor(n / 2 ** 32))
}

/** ceil(log2 k) for k ≥ 1: the static headroom a sum of k terms needs. */
export function ceilLog2(k: number): number {
  return bitLength(k - 1)
}

/** 2^s for s in [0, 60]: a table read instead of a power call in the hot rounding paths. */
const POW2 = Float64Array.from({ length: 61 }, (_, s) => 2 ** s)

/**
 * Round-half-even of x·2^-s for an exact integer x (|x| ≤ 2^53). s < 0 multiplies (exact while the
 * result stays ≤ 2^53). Not saturated: callers store through sat32.
 */
export function rne(x: number, s: number): number {
  if (s <= 0) return x * 2 ** -s
  if (s > 60) return 0 // |x| ≤ 2^53 < 2^(s-1): below half a unit, and never a tie
  const unit = POW2[s]!
  const q = Math.floor(x / unit) // exact: division by a power of two only moves the exponent
  const r = x - q * unit
  const half = unit / 2
  return r > half || (r === half && q % 2 !== 0) ? q + 1 : q
}

/** rne for an i32 x and 0 ≤ s ≤ 30 in 32-bit integer arithmetic (the narrowing hot path); other shifts go to rne. */
export function rneI32(x: number, s: number): number {
  if (s === 0) return x
  if (s > 30) return rne(x, s)
  const q = x >> s // floor, for negative x too
  const r = x & ((1 << s) - 1)
  const half = 1 << (s - 1)
  return r > half || (r === half && (q & 1) !== 0) ? q + 1 : q
}

/**
 * Round-half-even of (h·2^b + l)·2^-s for exact integers h, l (|·| < 2^53) and 1 ≤ b ≤ 16: a value
 * held as two limbs, as WGSL holds 64-bit sums in u32 pairs. Exact for any s (s < 0 multiplies);
 * results beyond 2^53 saturate to ±2^53 (callers then saturate to i32).
 */
export function rneLimbs(hIn: number, lIn: number, b: number, s: number): number {
  const limb = 2 ** b
  const carry = Math.floor(lIn / limb)
  const h = hIn + carry
  const l = lIn - carry * limb // now 0 ≤ l < 2^b
  if (Math.abs(h) < 2 ** (53 - b)) return rne(h * limb + l, s)
  if (s < b) {
    // h·2^(b−s) is an even integer, so rounding only l keeps the half-even parity
    const k = h * 2 ** (b - s)
    return Math.abs(k) < HUGE ? k + rne(l, s) : h < 0 ? -HUGE : HUGE
  }
  if (s === b) return l > limb / 2 || (l === limb / 2 && h % 2 !== 0) ? h + 1 : h
  const unit = 2 ** (s - b)
  const q = Math.floor(h / unit)
  const r = h - q * unit
  // remainder r·2^b + l against half = 2^(s−b−1)·2^b, decided without forming it
  const half = unit / 2
  const above = r > half || (r === half && l > 0)
  const tie = r === half && l === 0
  return above || (tie && q % 2 !== 0) ? q + 1 : q
}

/**
 * Round-half-even of |a|·|b|·2^-s for |a| < 2^34, |b| < 2^31 and 16 ≤ s ≤ 52, whatever the product's
 * size: |b| = bh·2^16 + bl makes two partial products below 2^50, and the quotient and remainder by
 * 2^s are assembled from them exactly (the remainder stays below 2^53). What `rneLimbs` does for
 * these shifts, without its general case analysis on the hot path (expFixed's Horner steps land here).
 */
function mulRneWide(a: number, b: number, s: number): number {
  const bh = Math.floor(b / 65536)
  const hi = a * bh
  const lo = a * (b - bh * 65536)
  const hiUnit = POW2[s - 16]!
  const q1 = Math.floor(hi / hiUnit)
  const rem = (hi - q1 * hiUnit) * 65536 + lo // < 2^s + 2^50 ≤ 2^53
  const unit = POW2[s]!
  const q2 = Math.floor(rem / unit)
  const r = rem - q2 * unit
  const q = q1 + q2
  const half = unit / 2
  return r > half || (r === half && q % 2 !== 0) ? q + 1 : q
}

/**
 * Round-half-even of a·b·2^-s for a up to 2^33 in magnitude and i32 b, exact for any s ≥ 0: the
 * product (up to 2^64) as 16-bit limbs of b, like the WGSL 32×16 multiplies.
 */
export function mulRne(a: number, b: number, s: number): number {
  // a computed |a·b| below 2^53 means the true product is too (rounding is monotonic): it is exact
  const p = a * b + 0 // + 0: 0 times a negative number is −0, which the limb form never returns
  if (s >= 0 && p < 2 ** 53 && p > -(2 ** 53)) return rne(p, s)
  if (s >= 16 && s <= 52) {
    // round-half-even is symmetric, so the magnitude's rounding, negated, is the product's
    const m = mulRneWide(a < 0 ? -a : a, b < 0 ? -b : b, s)
    return p < 0 ? 0 - m : m // 0 − m: never −0, as the limb form
  }
  return rneLimbs(a * (b >> 16), a * (b & 0xffff), 16, s)
}

/**
 * Round-half-even of n·2^s / d for integers |n| < 2^32, 0 < d ≤ 2^31, s ≥ 0, by long division in
 * 21-bit chunks (each partial remainder times 2^21 stays below 2^53), as WGSL does with u32 words.
 * Saturates to i32.
 */
export function divRne(n: number, d: number, s: number): number {
  if (d <= 0) throw new RangeError(`divRne: divisor must be positive, got ${d}`)
  const neg = n < 0
  let r = Math.abs(n)
  let q: number
  if (s <= 52 && r < POW2[53 - s]!) {
    // n·2^s < 2^53: one division of exact integers, whose floor is exact (the quotient's rounding
    // error is below 1/d, the least distance of a non-integer quotient from an integer)
    r *= POW2[s]!
    q = Math.floor(r / d)
    r -= q * d
  } else {
    q = Math.floor(r / d)
    r -= q * d
    for (let left = s; left > 0;) {
      const c = Math.min(21, left)
      r *= 2 ** c
      const step = Math.floor(r / d)
      r -= step * d
      q = q * 2 ** c + step
      left -= c
      if (q > I32_MAX) return neg ? -I32_MAX : I32_MAX
    }
  }
  if (2 * r > d || (2 * r === d && q % 2 !== 0)) q += 1
  return sat32(neg && q !== 0 ? -q : q)
}

/** Round-half-even of x·2^-s for a bigint (the optimizer's exact wide intermediates). */
export function rneBig(x: bigint, s: number): number {
  if (s <= 0) return Number(x << BigInt(-s))
  const unit = 1n << BigInt(s)
  let q = x >> BigInt(s) // floor for negative values too
  const r = x - q * unit
  const half = unit >> 1n
  if (r > half || (r === half && (q & 1n) === 1n)) q += 1n
  return Number(q)
}
