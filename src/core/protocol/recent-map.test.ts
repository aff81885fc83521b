import { describe, expect, it } from 'vitest'
import { createRecentMap } from './recent-map.ts'

describe('createRecentMap', () => {
  it('holds at most its bound, forgetting the least recently used keys first', () => {
    const map = createRecentMap<number>(4)
    for (const [i, k] of ['a', 'b', 'c'].entries()) map.set(k, i)
    expect(map.get('a')).toBe(0) // a use: 'a' outlives 'b'
    map.set('d', 3)
    map.set('e', 4)
    expect(map.size).toBeLessThanOrEqual(4)
    expect(map.get('a')).toBe(0)
    expect(map.get('b')).toBeUndefined()
    expect(Object.fromEntries(map.entries())).toMatchObject({ a: 0, e: 4 })
    map.delete('a')
    expect(map.get('a')).toBeUndefined()
  })

  it('stays within its bound under 100,000 distinct keys', () => {
    const map = createRecentMap<number>(1000)
    for (let i = 0; i < 100_000; i++) map.set(`k${i}`, i)
    expect(map.size).toBeLessThanOrEqual(1000)
    expect(map.get('k99999')).toBe(99_999)
  })
})
