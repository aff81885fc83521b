import { describe, expect, it } from 'vitest'
import { MarketMathError } from './errors.ts'
import { UINT256_MAX, divUp, mulDivDown, mulDivUp, sqrtDown, sqrtUp } from './fixed-point.ts'
import { Rng } from '../../../test-support/markets/test-rng.ts'
import { bisectSqrt } from '../../../test-support/markets/test-helpers.ts'

describe('sqrtDown / sqrtUp', () => {
  it('match a brute force on every integer below 70,000', () => {
    let r = 0n
    for (let x = 0n; x < 70_000n; x++) {
      while ((r + 1n) * (r + 1n) <= x) r++
      expect(sqrtDown(x)).toBe(r)
      expect(sqrtUp(x)).toBe(r * r === x ? r : r + 1n)
    }
  })

  it('are the exact floor and ceiling for huge values up to 2^256 − 1', () => {
    const rng = new Rng(1)
    const cases = [UINT256_MAX, UINT256_MAX - 1n, (1n << 255n) + 1n, (1n << 128n) - 1n, 1n << 128n]
    for (let i = 0; i < 400; i++) cases.push(rng.logBig(1n, UINT256_MAX))
    for (let i = 0; i < 100; i++) {
      const r = rng.big(0n, (1n << 128n) - 1n)
      cases.push(r * r, r * r - 1n, r * r + 1n)
    }
    for (const x of cases.filter((c) => c >= 0n)) {
      const d = sqrtDown(x)
      expect(d * d <= x && (d + 1n) * (d + 1n) > x).toBe(true)
      expect(d).toBe(bisectSqrt(x))
      const u = sqrtUp(x)
      expect(u * u >= x && (u === 0n || (u - 1n) * (u - 1n) < x)).toBe(true)
    }
    expect(sqrtDown(UINT256_MAX)).toBe((1n << 128n) - 1n)
    expect(sqrtUp(UINT256_MAX)).toBe(1n << 128n)
  })

  it('refuse values outside uint256', () => {
    expect(() => sqrtDown(-1n)).toThrow(MarketMathError)
    expect(() => sqrtDown(UINT256_MAX + 1n)).toThrow(/Uint256Overflow/)
  })
})

describe('mulDivDown / mulDivUp', () => {
  it('match floor and ceiling on an exhaustive small range', () => {
    for (let a = 0n; a < 24n; a++)
      for (let b = 0n; b < 24n; b++)
        for (let d = 1n; d < 24n; d++) {
          const p = a * b
          let floor = 0n
          while ((floor + 1n) * d <= p) floor++
          expect(mulDivDown(a, b, d)).toBe(floor)
          expect(mulDivUp(a, b, d)).toBe(floor * d === p ? floor : floor + 1n)
        }
  })

  it('use the full 512-bit product and bound the result to uint256', () => {
    const rng = new Rng(2)
    for (let i = 0; i < 500; i++) {
      const a = rng.logBig(0n, UINT256_MAX)
      const b = rng.logBig(0n, UINT256_MAX)
      const d = rng.logBig(1n, UINT256_MAX)
      const p = a * b
      const q = p / d
      if (q > UINT256_MAX) {
        expect(() => mulDivDown(a, b, d)).toThrow(/Uint256Overflow/)
        continue
      }
      const down = mulDivDown(a, b, d)
      expect(down * d <= p && (down + 1n) * d > p).toBe(true)
      const up = mulDivUp(a, b, d)
      expect(up - down).toBe(p % d === 0n ? 0n : 1n)
    }
    expect(mulDivDown(UINT256_MAX, UINT256_MAX, UINT256_MAX)).toBe(UINT256_MAX)
    expect(mulDivUp(UINT256_MAX, UINT256_MAX - 1n, UINT256_MAX)).toBe(UINT256_MAX - 1n)
    expect(() => mulDivUp(UINT256_MAX, 2n, 1n)).toThrow(/Uint256Overflow/)
    expect(() => mulDivDown(1n, 1n, 0n)).toThrow(/DivisionByZero/)
    expect(divUp(7n, 2n)).toBe(4n)
    expect(divUp(8n, 2n)).toBe(4n)
  })
})
