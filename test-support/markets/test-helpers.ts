// Shared by the market maths tests: an independent square root and the name of the error a call throws.
import { expect } from 'vitest'
import { MarketMathError } from '../../src/core/markets/errors.ts'

/** Reference floor square root by bisection (a different algorithm from the module's Newton iteration). */
export function bisectSqrt(x: bigint): bigint {
  let lo = 0n
  let hi = x + 1n
  while (hi - lo > 1n) {
    const mid = (lo + hi) >> 1n
    if (mid * mid <= x) lo = mid
    else hi = mid
  }
  return lo
}

/** The custom error name `f` throws (as a MarketMathError), or 'no error'. */
export function errorName(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(MarketMathError)
    return (e as MarketMathError).name
  }
  return 'no error'
}
