import { describe, expect, it } from 'vitest'
import { DIAL_BACKOFF_MAX_MS, DIAL_BACKOFF_MIN_MS, MAX_BACKOFF_PEERS } from './constants.ts'
import { createDialBackoff } from './dial-backoff.ts'

describe('createDialBackoff', () => {
  it('waits DIAL_BACKOFF_MIN_MS after a first failure, doubling up to DIAL_BACKOFF_MAX_MS, and forgets on success', () => {
    const b = createDialBackoff()
    expect(b.ready('p', 0)).toBe(true)
    b.failed('p', 0)
    expect(b.ready('p', DIAL_BACKOFF_MIN_MS - 1)).toBe(false)
    expect(b.ready('p', DIAL_BACKOFF_MIN_MS)).toBe(true)
    let t = 0
    for (let i = 0; i < 10; i++) b.failed('p', (t += 100_000))
    expect(b.ready('p', t + DIAL_BACKOFF_MAX_MS - 1)).toBe(false)
    expect(b.ready('p', t + DIAL_BACKOFF_MAX_MS)).toBe(true)
    b.succeeded('p')
    expect(b.ready('p', t)).toBe(true)
    expect(b.size).toBe(0)
  })

  it('keeps a bounded record however many distinct peers fail (10,000 strangers), the latest ones kept', () => {
    const b = createDialBackoff()
    for (let i = 0; i < 10_000; i++) b.failed(`peer${i}`, 0)
    expect(b.size).toBeLessThanOrEqual(MAX_BACKOFF_PEERS)
    expect(b.ready('peer9999', 1)).toBe(false)
  })
})
