import { describe, expect, it } from 'vitest'
import { gcd, mod, modInverse, modPow } from './bigint-math.ts'

describe('bigint maths', () => {
  it('gcd ignores signs', () => {
    expect(gcd(-84n, 126n)).toBe(42n)
    expect(gcd(0n, 7n)).toBe(7n)
  })

  it('mod is never negative', () => {
    expect(mod(-7n, 5n)).toBe(3n)
    expect(mod(7n, 5n)).toBe(2n)
  })

  it('modPow agrees with repeated multiplication', () => {
    for (let e = 0n; e < 30n; e++) expect(modPow(7n, e, 13n)).toBe(7n ** e % 13n)
    expect(modPow(5n, 0n, 1n)).toBe(0n)
  })

  it('modInverse gives x with a·x ≡ 1, and refuses a shared factor', () => {
    for (let a = 1n; a < 97n; a++) expect(mod(a * modInverse(a, 97n), 97n)).toBe(1n)
    expect(() => modInverse(6n, 9n)).toThrow(RangeError)
  })
})
