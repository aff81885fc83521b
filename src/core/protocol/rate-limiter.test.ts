import { describe, expect, it } from 'vitest'
import { createRateLimiter } from './rate-limiter.ts'

const limit = { perSecond: 2, burst: 3 }

describe('createRateLimiter', () => {
  it('allows a burst, then the sustained rate', () => {
    const limiter = createRateLimiter(10)
    const taken = Array.from({ length: 5 }, () => limiter.take('a', limit, 0))
    expect(taken).toEqual([true, true, true, false, false])
    expect(limiter.take('a', limit, 499)).toBe(false)
    expect(limiter.take('a', limit, 500)).toBe(true)
    expect(limiter.take('a', limit, 500)).toBe(false)
  })

  it('refills no further than the burst', () => {
    const limiter = createRateLimiter(10)
    limiter.take('a', limit, 0)
    const taken = Array.from({ length: 5 }, () => limiter.take('a', limit, 60_000))
    expect(taken).toEqual([true, true, true, false, false])
  })

  it('keeps one bucket per key', () => {
    const limiter = createRateLimiter(10)
    for (let i = 0; i < 3; i++) limiter.take('a', limit, 0)
    expect(limiter.take('a', limit, 0)).toBe(false)
    expect(limiter.take('b', limit, 0)).toBe(true)
  })

  it('refills nothing when the clock steps back, and does not count the step twice', () => {
    const limiter = createRateLimiter(10)
    for (let i = 0; i < 3; i++) limiter.take('a', limit, 10_000)
    expect(limiter.take('a', limit, 0)).toBe(false)
    expect(limiter.take('a', limit, 10_499)).toBe(false)
    expect(limiter.take('a', limit, 10_500)).toBe(true)
  })

  it('holds at most its bound of buckets, dropping the least recently used', () => {
    const limiter = createRateLimiter(100)
    for (let i = 0; i < 100_000; i++) limiter.take(`k${i}`, limit, 0)
    expect(limiter.size).toBe(100)
    const small = createRateLimiter(2)
    for (let i = 0; i < 3; i++) small.take('a', limit, 0)
    small.take('b', limit, 0)
    small.take('a', limit, 0) // a is now the most recently used
    small.take('c', limit, 0) // drops b
    expect(small.take('a', limit, 0)).toBe(false) // a kept its empty bucket
  })
})
