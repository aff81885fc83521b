import { describe, expect, it } from 'vitest'
import { yAt } from './series-lookup.ts'

describe('yAt', () => {
  const points = Array.from({ length: 10_000 }, (_, i) => ({ x: i * 2, y: i === 7 ? NaN : i / 10 }))

  it('finds the point at x in a long sorted series', () => {
    expect(yAt(points, 0)).toBe(0)
    expect(yAt(points, 19_998)).toBe(999.9)
    expect(yAt(points, 1234)).toBe(61.7)
  })

  it('tells a gap (NaN) from no point at all (undefined)', () => {
    expect(yAt(points, 14)).toBeNaN()
    expect(yAt(points, 3)).toBeUndefined()
    expect(yAt(points, -2)).toBeUndefined()
    expect(yAt([], 0)).toBeUndefined()
  })
})
