import { describe, expect, it } from 'vitest'
import { roundTasks, type RoundDraw } from './round-tasks.ts'
import { taskFromRef } from './task-ref.ts'

const draw: RoundDraw = {
  swarmId: 'a'.repeat(64),
  round: 7,
  peerId: '12D3KooWpeer',
  count: 4,
  difficulty: 2,
  sources: [
    { kind: 'reasoning', family: 'arithmetic' },
    { kind: 'reasoning', family: 'list-sorting' },
    { kind: 'code', family: 'digit-sum' },
  ],
}

describe('roundTasks', () => {
  it('draws the same tasks for the same swarm, round and peer', () => {
    expect(roundTasks(draw)).toEqual(roundTasks({ ...draw }))
    expect(roundTasks(draw)).toHaveLength(4)
  })

  it('draws other tasks in another round or for another peer', () => {
    const seeds = (d: RoundDraw) => roundTasks(d).map((t) => t.seed)
    expect(seeds({ ...draw, round: 8 })).not.toEqual(seeds(draw))
    expect(seeds({ ...draw, peerId: '12D3KooWother' })).not.toEqual(seeds(draw))
  })

  it('draws only the swarm’s families at its difficulty, and every draw regenerates', () => {
    const refs = roundTasks({ ...draw, count: 60 })
    expect(new Set(refs.map((r) => r.family))).toEqual(new Set(['arithmetic', 'list-sorting', 'digit-sum']))
    for (const ref of refs) {
      expect(ref.difficulty).toBe(2)
      expect(taskFromRef(ref)).toMatchObject({ kind: ref.kind, family: ref.family, seed: ref.seed })
    }
  })

  it('refuses a swarm without task families', () => {
    expect(() => roundTasks({ ...draw, sources: [] })).toThrow('at least one task family')
  })
})
