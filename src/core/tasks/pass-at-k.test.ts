import { describe, expect, it } from 'vitest'
import { averageAtK, passAtK } from './pass-at-k.ts'

/** All k-subsets of the indices 0 … n-1. */
function* subsets(n: number, k: number, start = 0, chosen: number[] = []): Generator<number[]> {
  if (chosen.length === k) return yield [...chosen]
  for (let i = start; i < n; i++) yield* subsets(n, k, i + 1, [...chosen, i])
}

function bruteForce(n: number, c: number, k: number) {
  let hits = 0
  let total = 0
  for (const subset of subsets(n, k)) {
    total += 1
    // samples 0 … c-1 are the correct ones
    if (subset.some((i) => i < c)) hits += 1
  }
  return hits / total
}

describe('passAtK', () => {
  it('equals the share of k-subsets with a correct sample, for every n ≤ 10', () => {
    for (let n = 1; n <= 10; n++)
      for (let c = 0; c <= n; c++)
        for (let k = 1; k <= n; k++) expect(passAtK(n, c, k)).toBeCloseTo(bruteForce(n, c, k), 12)
  })

  it('is c/n for k = 1, 0 without correct samples and 1 when every k-subset has one', () => {
    expect(passAtK(8, 3, 1)).toBeCloseTo(3 / 8, 15)
    expect(passAtK(200, 0, 100)).toBe(0)
    expect(passAtK(10, 7, 4)).toBe(1)
  })

  it('stays finite and monotone where the binomials overflow a double', () => {
    // C(2000, 1000) ≈ 2e600: the naive ratio would be Infinity / Infinity.
    const values = [1, 10, 100, 1000].map((k) => passAtK(2000, 3, k))
    for (const v of values) expect(Number.isFinite(v)).toBe(true)
    expect(values).toEqual([...values].sort((a, b) => a - b))
    expect(values[3]).toBeCloseTo(1 - 0.5 ** 3, 3)
  })

  it('refuses impossible counts', () => {
    expect(() => passAtK(4, 1, 5)).toThrow(RangeError)
    expect(() => passAtK(4, 1, 0)).toThrow(RangeError)
    expect(() => passAtK(4, 5, 1)).toThrow(RangeError)
  })
})

describe('averageAtK', () => {
  it('equals the mean score over all k-subsets', () => {
    const scores = [1.2, -1, 0.2, 1, -0.2, 0.2, 1.2]
    for (let k = 1; k <= scores.length; k++) {
      const means = [...subsets(scores.length, k)].map((s) => s.reduce((sum, i) => sum + scores[i]!, 0) / k)
      expect(averageAtK(scores, k)).toBeCloseTo(means.reduce((a, b) => a + b, 0) / means.length, 12)
    }
  })

  it('refuses k larger than the number of samples', () => {
    expect(() => averageAtK([1, 0], 3)).toThrow(RangeError)
  })
})
