import { describe, expect, it } from 'vitest'
import { isInSendersDraw, roundTasks, type RoundDraw } from './round-tasks.ts'
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

describe('isInSendersDraw', () => {
  it("holds for the sender's own tasks at any difficulty it declares, not for another peer's", () => {
    const sender = {
      swarmId: draw.swarmId,
      round: draw.round,
      peerId: draw.peerId,
      count: 4,
      sources: draw.sources,
    }
    for (const ref of roundTasks(draw)) {
      expect(isInSendersDraw(sender, ref)).toBe(true)
      expect(isInSendersDraw(sender, { ...ref, difficulty: 5 })).toBe(true)
      expect(isInSendersDraw({ ...sender, peerId: '12D3KooWother' }, ref)).toBe(false)
      expect(isInSendersDraw({ ...sender, round: 8 }, ref)).toBe(false)
      expect(isInSendersDraw(sender, { ...ref, seed: (ref.seed + 1) >>> 0 })).toBe(false)
    }
  })
})
