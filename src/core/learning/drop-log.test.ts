import { describe, expect, it } from 'vitest'
import { createDropLog } from './drop-log.ts'

describe('createDropLog', () => {
  it('counts drops by sender and reason until taken, then starts over', () => {
    const log = createDropLog()
    log.record('a', 'closed')
    log.record('a', 'closed')
    log.record('b', 'schema')
    log.record('a', 'sender-full')
    expect(log.take()).toEqual({
      total: 4,
      bySender: { a: { closed: 2, 'sender-full': 1 }, b: { schema: 1 } },
    })
    expect(log.take()).toEqual({ total: 0, bySender: {} })
  })

  it('names at most its bound of senders, the most recent, and counts every drop in the total', () => {
    const log = createDropLog(4)
    for (const from of ['a', 'b', 'c', 'a', 'd', 'e', 'f']) log.record(from, 'full')
    const drops = log.take()
    expect(drops.total).toBe(7)
    expect(Object.keys(drops.bySender).length).toBeLessThanOrEqual(4)
    expect(drops.bySender.f).toEqual({ full: 1 })
    expect(drops.bySender.b).toBeUndefined()
  })
})
