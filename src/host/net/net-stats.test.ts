import { describe, expect, it } from 'vitest'
import { MAX_PEER_RECORDS } from './constants.ts'
import { createNetStats } from './net-stats.ts'

describe('createNetStats', () => {
  it('counts per peer, and what a peer had refused is charged only when it is its fault', () => {
    const stats = createNetStats()
    stats.received('a', 100)
    stats.sent(['a', 'b'], 10)
    stats.rejected('a', 'malformed', 5)
    stats.ignored('b', 'stale', 7)
    const { stats: s } = stats.sample(0)
    expect(s).toMatchObject({
      messagesIn: 1,
      messagesOut: 1,
      bytesIn: 112,
      bytesOut: 20,
      rejected: 2,
      ignored: 1,
    })
    expect(s.rejectedByReason).toEqual({ malformed: 1, stale: 1 })
    expect(s.perPeer.a).toMatchObject({ messagesIn: 1, messagesOut: 1, bytesIn: 105, rejected: 1 })
    expect(s.perPeer.b).toMatchObject({ messagesOut: 1, bytesIn: 7, rejected: 0 })
  })

  it('keeps a bounded record per peer however many distinct peers it hears (10,000 strangers)', () => {
    const stats = createNetStats()
    stats.received('neighbour', 1)
    for (let i = 0; i < 10_000; i++) {
      stats.received(`stranger${i}`, 1)
      // a neighbour that keeps talking keeps its record
      if (i % 100 === 0) stats.received('neighbour', 1)
    }
    const { stats: s } = stats.sample(0)
    // the totals still count everyone
    expect(Object.keys(s.perPeer).length).toBeLessThanOrEqual(MAX_PEER_RECORDS)
    expect(s.perPeer.neighbour?.messagesIn).toBe(101)
    expect(s.perPeer.stranger9999?.messagesIn).toBe(1)
    expect(s.messagesIn).toBe(10_101)
  })
})
