import { describe, expect, it } from 'vitest'
import { mulHiLo32, philox4x32 } from './philox.ts'
import { seededRandom } from './seeded-random.ts'

describe('Philox4x32-10', () => {
  it('matches the Random123 known-answer vectors', () => {
    expect(philox4x32([0, 0, 0, 0], [0, 0])).toEqual([0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8])
    expect(philox4x32([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff], [0xffffffff, 0xffffffff])).toEqual([
      0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd,
    ])
    expect(philox4x32([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0])).toEqual([
      0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1,
    ])
  })

  it('computes the exact 64-bit product', () => {
    const rand = seededRandom(61)
    for (let i = 0; i < 1000; i++) {
      const [a, b] = [Math.floor(rand() * 2 ** 32), Math.floor(rand() * 2 ** 32)]
      const p = BigInt(a) * BigInt(b)
      expect(mulHiLo32(a, b)).toEqual([Number(p >> 32n), Number(p & 0xffffffffn)])
    }
  })
})
