import { describe, expect, it } from 'vitest'
import { createReplayCache } from './replay-cache.ts'

describe('createReplayCache', () => {
  it('remembers a key until its expiry, inclusive', () => {
    const cache = createReplayCache(10)
    cache.add('a', 100, 0)
    expect(cache.has('a', 0)).toBe(true)
    expect(cache.has('a', 100)).toBe(true)
    expect(cache.has('a', 101)).toBe(false)
    expect(cache.has('b', 0)).toBe(false)
  })

  it('frees its keys once they have all expired', () => {
    const cache = createReplayCache(10)
    for (let i = 0; i < 4; i++) cache.add(`k${i}`, 100 + i, 0)
    cache.add('late', 500, 102)
    expect(cache.has('k1', 102)).toBe(false)
    expect(cache.has('k3', 102)).toBe(true)
    cache.add('later', 1000, 501)
    expect(cache.size).toBe(1)
    expect(cache.has('later', 501)).toBe(true)
  })

  it('never holds more than its bound, forgetting the oldest keys first', () => {
    const cache = createReplayCache(4)
    for (let i = 0; i < 1000; i++) {
      cache.add(`k${i}`, 10_000, 0)
      expect(cache.size).toBeLessThanOrEqual(4)
    }
    expect(cache.has('k999', 0)).toBe(true)
    expect(cache.has('k998', 0)).toBe(true)
    expect(cache.has('k995', 0)).toBe(false)
  })

  it('handles a flood of distinct keys in linear time', () => {
    const cache = createReplayCache(20_000)
    const started = performance.now()
    for (let i = 0; i < 200_000; i++) cache.add(`key-${i}`, 10_000, 0)
    expect(cache.size).toBe(20_000)
    // Quadratic eviction took seconds here; linear is a few tens of milliseconds.
    expect(performance.now() - started).toBeLessThan(1500)
  })
})
