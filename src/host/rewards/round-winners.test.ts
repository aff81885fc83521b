import { describe, expect, it } from 'vitest'
import { MAX_WINNERS, roundWinners } from './round-winners.ts'

describe('roundWinners', () => {
  it('names the peer with the top mean reward', () => {
    expect(roundWinners({ self: 0.25, b: 0.75, c: 0.5 })).toEqual(['b'])
  })

  it('names every peer tied at the top, sorted by peer id', () => {
    expect(roundWinners({ z: 1, self: 0.2, a: 1, m: 1 })).toEqual(['a', 'm', 'z'])
  })

  it('names nobody when every reward is zero or less, or there are no peers', () => {
    expect(roundWinners({ a: 0, b: -0.5 })).toEqual([])
    expect(roundWinners({})).toEqual([])
  })

  it('caps a tie at the contract’s MAX_WINNERS', () => {
    const many = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`p${String(i).padStart(2, '0')}`, 1]),
    )
    const winners = roundWinners(many)
    expect(winners).toHaveLength(MAX_WINNERS)
    expect(winners[0]).toBe('p00')
    expect(winners.at(-1)).toBe('p31')
  })

  it('leaves out rewards that are not numbers and peer ids the contract refuses', () => {
    expect(roundWinners({ a: Number.NaN, b: Infinity, c: 0.4, ['x'.repeat(129)]: 0.9, '': 0.9 })).toEqual([
      'c',
    ])
  })
})
