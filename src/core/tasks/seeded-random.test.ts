import { describe, expect, it } from 'vitest'
import { SeededRandom } from './seeded-random.ts'

describe('SeededRandom', () => {
  it('draws the same numbers from the same key, and others from another key', () => {
    const draws = (key: string) => {
      const random = new SeededRandom(key)
      return Array.from({ length: 5 }, () => random.nextUint32())
    }
    expect(draws('a')).toEqual(draws('a'))
    expect(draws('a')).not.toEqual(draws('b'))
    // Pinned: a change here changes every task id in the swarm.
    expect(draws('tabswarm')).toMatchInlineSnapshot(`
      [
        138945290,
        99826941,
        3411004402,
        1661678678,
        3833802738,
      ]
    `)
  })

  it('keeps int() within its bounds and reaches both ends', () => {
    const random = new SeededRandom('bounds')
    const seen = new Set(Array.from({ length: 2_000 }, () => random.int(-3, 3)))
    expect([...seen].sort((a, b) => a - b)).toEqual([-3, -2, -1, 0, 1, 2, 3])
  })

  it('is roughly uniform', () => {
    const random = new SeededRandom('uniform')
    const counts = [0, 0, 0, 0]
    for (let i = 0; i < 40_000; i++) counts[random.int(0, 3)]! += 1
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(400)
  })

  it('refuses to pick from an empty list', () => {
    expect(() => new SeededRandom('edges').pick([])).toThrow(RangeError)
  })
})
