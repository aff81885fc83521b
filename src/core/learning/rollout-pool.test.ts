import { describe, expect, it } from 'vitest'
import { MAX_GROUPS_PER_SENDER, createRolloutPool } from './rollout-pool.ts'
import type { RolloutGroup } from '../protocol/rollouts.ts'

/** counts of the pool's drops by verdict, as its onDrop hears them */
function dropCounts() {
  const counts: Record<string, number> = {
    duplicate: 0,
    'wrong-round': 0,
    closed: 0,
    full: 0,
    'sender-full': 0,
  }
  return { counts, onDrop: (_: string, verdict: string) => void counts[verdict]!++ }
}

const group = (taskId: string): RolloutGroup => ({
  taskId,
  task: { kind: 'reasoning', family: 'arithmetic', difficulty: 1, seed: 1 },
  completions: [],
  rewards: [],
  policyVersion: 0,
})

describe('createRolloutPool', () => {
  it('keeps one group per sender and task, for its own round, while open', () => {
    const { counts, onDrop } = dropCounts()
    const pool = createRolloutPool(4, { maxGroups: 3, onDrop })
    expect(pool.offer('a', 4, group('t1'))).toBe('added')
    expect(pool.offer('b', 4, group('t1'))).toBe('added')
    expect(pool.offer('a', 4, group('t1'))).toBe('duplicate')
    expect(pool.offer('a', 3, group('t2'))).toBe('wrong-round')
    expect(pool.offer('a', 4, group('t2'))).toBe('added')
    expect(pool.offer('c', 4, group('t3'))).toBe('full')
    pool.close()
    expect(pool.offer('d', 4, group('t4'))).toBe('closed')
    expect(pool.groups().map((g) => `${g.from}/${g.group.taskId}`)).toEqual(['a/t1', 'b/t1', 'a/t2'])
    expect(counts).toEqual({ duplicate: 1, 'wrong-round': 1, closed: 1, full: 1, 'sender-full': 0 })
  })

  it('holds at most MAX_GROUPS_PER_SENDER groups of one sender, and no more than the room an offer gives', () => {
    const { counts, onDrop } = dropCounts()
    const pool = createRolloutPool(4, { onDrop })
    for (let i = 0; i < MAX_GROUPS_PER_SENDER; i++) expect(pool.offer('a', 4, group(`t${i}`))).toBe('added')
    expect(pool.offer('a', 4, group('one too many'))).toBe('sender-full')
    expect(pool.offer('b', 4, group('t0'), MAX_GROUPS_PER_SENDER)).toBe('full')
    expect(pool.offer('b', 4, group('t0'))).toBe('added')
    expect(counts).toMatchObject({ 'sender-full': 1, full: 1 })
  })
})

describe('createRolloutPool with earned trust', () => {
  const STRANGERS = 1_000
  const ROUNDS = 5

  it('keeps every group of one trusted peer while 1,000 fresh identities publish their cap every round', () => {
    const trustOf = (from: string) => (from === 'honest' ? 5 : 0)
    for (let round = 0; round < ROUNDS; round++) {
      const pool = createRolloutPool(round, { trustOf })
      // The honest peer's message lands at a different point of the flood each round, last in the final one.
      const honestAt = round === ROUNDS - 1 ? STRANGERS : (round * 250) % STRANGERS
      for (let s = 0; s <= STRANGERS; s++) {
        const from = s === honestAt ? 'honest' : `fresh-${round}-${s}`
        for (let t = 0; t < MAX_GROUPS_PER_SENDER; t++) pool.offer(from, round, group(`t${t}`))
      }
      const honest = pool.groups().filter((g) => g.from === 'honest').length
      expect(honest, `round ${round}`).toBe(MAX_GROUPS_PER_SENDER)
    }
  })

  it('gives unknown senders together at most MAX_UNKNOWN_SHARE of the pool', () => {
    const pool = createRolloutPool(1, { maxGroups: 64, perSender: 4, trustOf: () => 0 })
    for (let s = 0; s < 100; s++) for (let t = 0; t < 4; t++) pool.offer(`fresh-${s}`, 1, group(`t${t}`))
    expect(pool.groups().length).toBe(64 / 4)
  })

  it('lets a more trusted sender evict the newest group of the least trusted one when full', () => {
    const trust: Record<string, number> = { low: 1, mid: 2, high: 3 }
    const pool = createRolloutPool(1, { maxGroups: 4, perSender: 4, trustOf: (f) => trust[f] ?? 0 })
    for (const t of ['a', 'b']) pool.offer('low', 1, group(t))
    for (const t of ['a', 'b']) pool.offer('mid', 1, group(t))
    expect(pool.offer('high', 1, group('a'))).toBe('added')
    expect(pool.offer('low', 1, group('c'))).toBe('full')
    expect(pool.offer('high', 1, group('b'))).toBe('added')
    expect(pool.offer('high', 1, group('c'))).toBe('added')
    expect(pool.groups().map((g) => `${g.from}/${g.group.taskId}`)).toEqual([
      'mid/a',
      'high/a',
      'high/b',
      'high/c',
    ])
  })
})
