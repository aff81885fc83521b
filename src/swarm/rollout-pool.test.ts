import { describe, expect, it } from 'vitest'
import { createRolloutPool } from './rollout-pool.ts'
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
    const pool = createRolloutPool(4, 3)
    expect(pool.offer('a', 4, group('t1'))).toBe('added')
    expect(pool.offer('b', 4, group('t1'))).toBe('added')
    expect(pool.offer('a', 4, group('t1'))).toBe('duplicate')
    expect(pool.offer('a', 3, group('t2'))).toBe('wrong-round')
    expect(pool.offer('a', 4, group('t2'))).toBe('added')
    expect(pool.offer('c', 4, group('t3'))).toBe('full')
    pool.close()
    expect(pool.offer('d', 4, group('t4'))).toBe('closed')
    expect(pool.groups().map((g) => `${g.from}/${g.group.taskId}`)).toEqual(['a/t1', 'b/t1', 'a/t2'])
    expect(pool.dropped).toEqual({ duplicate: 1, 'wrong-round': 1, closed: 1, full: 1 })
  })
})
