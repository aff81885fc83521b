import { describe, expect, it } from 'vitest'
import type { ExternalGroup } from './rollout-pool.ts'
import type { RolloutGroup } from '../protocol/rollouts.ts'
import { sampleTrainingBatch } from './sapo-sampler.ts'
import { type SapoCounts } from './learning-config.ts'

/** The SAPO paper's best setting: 2 own and 2 heard groups of G = 2 a step. */
const SAPO: SapoCounts = { localGroups: 2, externalGroups: 2 }

const group = (taskId: string): RolloutGroup => ({
  taskId,
  task: { kind: 'reasoning', family: 'arithmetic', difficulty: 1, seed: 1 },
  completions: [],
  rewards: [],
  policyVersion: 0,
})
const own = ['o1', 'o2', 'o3'].map(group)
const shared: ExternalGroup[] = [
  { from: 'p1', group: group('o1') }, // a task the peer has itself: never taken
  { from: 'p1', group: group('x1') },
  { from: 'p2', group: group('x1') }, // the same task from another peer: counts once
  { from: 'p2', group: group('x2') },
  { from: 'p3', group: group('x3') },
]

describe('sampleTrainingBatch', () => {
  it('takes L/G own groups and E/G external groups of tasks the peer does not have', () => {
    const batch = sampleTrainingBatch(own, shared, SAPO, 'swarm/1/me')
    expect(batch.local).toHaveLength(2)
    expect(new Set(batch.local.map((g) => g.taskId)).size).toBe(2)
    expect(batch.external).toHaveLength(2)
    const tasks = batch.external.map((g) => g.group.taskId)
    expect(new Set(tasks).size).toBe(2)
    expect(tasks).not.toContain('o1')
  })

  it('is the same batch for the same step key, and another one for another', () => {
    const key = (k: string) => {
      const b = sampleTrainingBatch(own, shared, SAPO, k)
      return [...b.local.map((g) => g.taskId), ...b.external.map((g) => `${g.from}/${g.group.taskId}`)].join()
    }
    expect(key('s/1/me')).toBe(key('s/1/me'))
    const keys = new Set(Array.from({ length: 20 }, (_, i) => key(`s/${i}/me`)))
    expect(keys.size).toBeGreaterThan(3)
  })

  it('with pick "signal", takes groups whose rewards differ first and fills up with the rest', () => {
    const scored = (taskId: string, rewards: number[]) => ({ ...group(taskId), rewards })
    const mine = [scored('a', [1, 1]), scored('b', [0, 1]), scored('c', [0, 0]), scored('d', [0.5, 0])]
    const heard: ExternalGroup[] = [
      { from: 'p1', group: scored('x', [0, 0]) },
      { from: 'p2', group: scored('x', [1, 0]) }, // the same task, with a signal: this offer stands for it
      { from: 'p1', group: scored('y', [1, 1]) },
      { from: 'p3', group: scored('z', [0.2, 0.7]) },
      { from: 'p3', group: scored('w', [0, 0]) },
    ]
    for (let k = 0; k < 20; k++) {
      const b = sampleTrainingBatch(mine, heard, { ...SAPO, pick: 'signal' }, `s/${k}/me`)
      expect(b.local.map((g) => g.taskId).sort()).toEqual(['b', 'd'])
      expect(b.external.map((g) => `${g.from}/${g.group.taskId}`).sort()).toEqual(['p2/x', 'p3/z'])
    }
    // too few with a signal: the rest fill the step
    const b = sampleTrainingBatch(mine, heard, { localGroups: 3, externalGroups: 3, pick: 'signal' }, 'k')
    expect(
      b.local
        .map((g) => g.taskId)
        .slice(0, 2)
        .sort(),
    ).toEqual(['b', 'd'])
    expect(b.local).toHaveLength(3)
    expect(
      b.external
        .slice(0, 2)
        .map((g) => g.group.taskId)
        .sort(),
    ).toEqual(['x', 'z'])
    expect(b.external).toHaveLength(3)
    // uniform ignores rewards: over many steps it also draws groups without a signal
    const uniform = new Set(
      Array.from({ length: 20 }, (_, k) =>
        sampleTrainingBatch(mine, heard, SAPO, `s/${k}/me`).local.map((g) => g.taskId),
      ).flat(),
    )
    expect(uniform.has('a') || uniform.has('c')).toBe(true)
  })

  it('with pick "signal-by-cell", keeps each cell to its share of the own draw, signal first within it', () => {
    const inCell = (taskId: string, family: string, rewards: number[]): RolloutGroup => ({
      ...group(taskId),
      task: { kind: 'reasoning', family, difficulty: 1, seed: 1 },
      rewards,
    })
    // the own draw: 2 fractions, 2 modular; what is heard: modular differs in every group, fractions
    // in one, and a family the peer did not draw
    const mine = [
      inCell('f1', 'fraction-simplification', [0, 1]),
      inCell('f2', 'fraction-simplification', [1, 1]),
      inCell('m1', 'modular-arithmetic', [0, 1]),
      inCell('m2', 'modular-arithmetic', [1, 0]),
    ]
    const heard: ExternalGroup[] = [
      ...['a', 'b', 'c', 'd'].map((t) => ({
        from: 'p1',
        group: inCell(`m-${t}`, 'modular-arithmetic', [0, 1]),
      })),
      { from: 'p2', group: inCell('f-a', 'fraction-simplification', [1, 0]) },
      { from: 'p2', group: inCell('f-b', 'fraction-simplification', [0, 0]) },
      { from: 'p3', group: inCell('s-a', 'list-sorting', [0, 1]) },
    ]
    const counts: SapoCounts = { localGroups: 4, externalGroups: 4 }
    const modular = (b: { external: ExternalGroup[] }) =>
      b.external.filter((g) => g.group.task.family === 'modular-arithmetic').length
    let modularWithSignal = 0
    for (let k = 0; k < 20; k++) {
      const signal = sampleTrainingBatch(mine, heard, { ...counts, pick: 'signal' }, `s/${k}/me`)
      const byCell = sampleTrainingBatch(mine, heard, { ...counts, pick: 'signal-by-cell' }, `s/${k}/me`)
      const families = (b: typeof byCell) => b.external.map((g) => g.group.task.family).sort()
      modularWithSignal += modular(signal)
      // by cell: 2 of each, the fractions group with a signal first
      expect(families(byCell)).toEqual([
        'fraction-simplification',
        'fraction-simplification',
        'modular-arithmetic',
        'modular-arithmetic',
      ])
      expect(byCell.external.map((g) => g.group.taskId)).toContain('f-a')
      expect(byCell.local.map((g) => g.taskId).sort()).toEqual(['f1', 'f2', 'm1', 'm2'])
    }
    // signal first alone leans to the cell that differs most: more than half of the 80 heard groups
    expect(modularWithSignal).toBeGreaterThan(40)
    // without own groups there is no mix to follow: signal first over all heard groups
    const alone = sampleTrainingBatch([], heard, { ...counts, pick: 'signal-by-cell' }, 's/0/me')
    expect(alone.external.every((g) => g.group.rewards.some((r) => r !== g.group.rewards[0]))).toBe(true)
    expect(alone.external).toHaveLength(4)
  })

  it('trains alone on its own groups when nothing is shared', () => {
    const batch = sampleTrainingBatch(own, [], { localGroups: 4, externalGroups: 2 }, 'k')
    expect(batch.local).toHaveLength(3)
    expect(batch.external).toEqual([])
  })
})
