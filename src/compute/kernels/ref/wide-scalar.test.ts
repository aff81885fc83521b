import { describe, expect, it } from 'vitest'
import { wideFromFloat, wideToFloat, WIDE_ONE } from './wide-scalar.ts'

describe('wideToFloat', () => {
  it('reads floor(x·2^62) back as x (to the nearest double)', () => {
    for (const x of [0, 0.5, 1.5, 2 ** -40, 1234.5678]) expect(wideToFloat(wideFromFloat(x))).toBe(x)
    expect(wideToFloat(WIDE_ONE + 1n)).toBe(1)
    expect(wideToFloat(String(3n * WIDE_ONE))).toBe(3)
  })
})
