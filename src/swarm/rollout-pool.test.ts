import { describe, expect, it } from 'vitest'
import { MAX_GROUPS_PER_SENDER, createRolloutPool } from './rollout-pool.ts'
import type { RolloutGroup } from './rollouts.ts'

const group = (taskId: string): RolloutGroup => ({
  taskId,
  task: { kind: 'reasoning', family: 'arithmetic', difficulty: 1, seed: 1 },
  completions: [],
  rewards: [],
  policyVersion: 0,
})

describe('createRolloutPool', () => {
  it('keeps one group per sender and task, for its own round, while open', () => {
    const pool = createRolloutPool(4, { maxGroups: 3 })
    expect(pool.offer('a', 4, group('t1'))).toBe('added')
    expect(pool.offer('b', 4, group('t1'))).toBe('added')
    expect(pool.offer('a', 4, group('t1'))).toBe('duplicate')
    expect(pool.offer('a', 3, group('t2'))).toBe('wrong-round')
    expect(pool.offer('a', 4, group('t2'))).toBe('added')
    expect(pool.offer('c', 4, group('t3'))).toBe('full')
    pool.close()
    expect(pool.offer('d', 4, group('t4'))).toBe('closed')
    expect(pool.groups().map((g) => `${g.from}/${g.group.taskId}`)).toEqual(['a/t1', 'b/t1', 'a/t2'])
    expect(pool.dropped).toEqual({ duplicate: 1, 'wrong-round': 1, closed: 1, full: 1, 'sender-full': 0 })
  })

  it('holds at most MAX_GROUPS_PER_SENDER groups of one sender, and no more than the room an offer gives', () => {
    const pool = createRolloutPool(4)
    for (let i = 0; i < MAX_GROUPS_PER_SENDER; i++) expect(pool.offer('a', 4, group(`t${i}`))).toBe('added')
    expect(pool.offer('a', 4, group('one too many'))).toBe('sender-full')
    expect(pool.offer('b', 4, group('t0'), MAX_GROUPS_PER_SENDER)).toBe('full')
    expect(pool.offer('b', 4, group('t0'))).toBe('added')
    expect(pool.dropped).toMatchObject({ 'sender-full': 1, full: 1 })
  })
})
