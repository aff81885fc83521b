import { describe, expect, it } from 'vitest'
import { PAIR_KEY_BASE, pairKey, pairOfKey } from './pair-key.ts'

describe('pairKey', () => {
  it('gives distinct pairs distinct keys and reads them back', () => {
    const pairs: [number, number][] = [
      [0, 0],
      [0, 1],
      [1, 0],
      [151_642, 3],
      [PAIR_KEY_BASE - 1, PAIR_KEY_BASE - 1],
    ]
    const keys = pairs.map(([left, right]) => pairKey(left, right))
    expect(new Set(keys).size).toBe(pairs.length)
    expect(keys.map(pairOfKey)).toEqual(pairs)
  })
})
