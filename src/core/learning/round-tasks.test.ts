import { describe, expect, it } from 'vitest'
import { isReservedPrompt } from '../tasks/reserved-prompts.ts'
import { REASONING_FAMILIES } from '../tasks/reasoning-families.ts'
import type { Difficulty } from '../tasks/task.ts'
import { learningCells } from './learning-config.ts'
import {
  cellKey,
  explorationCell,
  explorationSlots,
  freeSlots,
  roundTasks,
  SHARE_WINDOW_ROUNDS,
  slotInSendersDraw,
  type Cell,
  type RoundDraw,
} from './round-tasks.ts'
import { taskFromRef } from '../protocol/task-ref.ts'
import { SMALL_LEARNING } from './small-learning.ts'

const cells: Cell[] = [
  { kind: 'reasoning', family: 'arithmetic', difficulty: 1 },
  { kind: 'reasoning', family: 'list-sorting', difficulty: 2 },
  { kind: 'code', family: 'digit-sum', difficulty: 1 },
]
const draw: RoundDraw = { swarmId: 'a'.repeat(64), round: 7, peerId: '12D3KooWpeer', tasksPerRound: 4, cells }
/** The free slots all filled from one cell. */
const filled = (d: RoundDraw, cell: Cell = cells[0]!) => Array.from({ length: freeSlots(d) }, () => cell)

describe('roundTasks', () => {
  it('draws the same tasks for the same swarm, round, peer and choice', () => {
    expect(roundTasks(draw, filled(draw))).toEqual(roundTasks({ ...draw }, filled(draw)))
    expect(roundTasks(draw, filled(draw))).toHaveLength(4)
  })

  it('draws other seeds in another round or for another peer', () => {
    const seeds = (d: RoundDraw) => roundTasks(d, filled(d)).map((t) => t.seed)
    expect(seeds({ ...draw, round: 8 })).not.toEqual(seeds(draw))
    expect(seeds({ ...draw, peerId: '12D3KooWother' })).not.toEqual(seeds(draw))
  })

  it('fills the free slots with the chosen cells, each of the swarm’s, and every draw regenerates', () => {
    const refs = roundTasks(draw, filled(draw, cells[1]))
    const e = draw.tasksPerRound - freeSlots(draw)
    for (const [slot, ref] of refs.entries()) {
      const cell = slot < e ? explorationCell(draw, slot) : cells[1]!
      expect(cellKey(ref)).toBe(cellKey(cell))
      expect(taskFromRef(ref)).toMatchObject({ kind: ref.kind, family: ref.family, seed: ref.seed })
    }
  })

  it('refuses a choice outside the swarm’s cells or of the wrong size, and a swarm without cells', () => {
    const other: Cell = { kind: 'reasoning', family: 'arithmetic', difficulty: 5 }
    expect(() => roundTasks(draw, filled(draw, other))).toThrow("not one of the swarm's")
    expect(() => roundTasks(draw, [])).toThrow('free slots')
    expect(() => roundTasks({ ...draw, cells: [] }, [])).toThrow('at least one task family')
  })

  it('never draws a prompt reserved for held-out evaluation', () => {
    const every = learningCells({ ...SMALL_LEARNING, difficulties: { min: 1, max: 1 } })
    let drawn = 0
    for (let round = 0; round < 150; round++) {
      const d: RoundDraw = { ...draw, round, cells: every, tasksPerRound: 16 }
      for (const cell of every)
        for (const ref of roundTasks(d, filled(d, cell))) {
          expect(isReservedPrompt(taskFromRef(ref).prompt)).toBe(false)
          drawn++
        }
    }
    // 1 in 8 prompts is reserved: had the draw not skipped them, some of these would be
    expect(drawn).toBeGreaterThan(10_000)
  })
})

describe('explorationSlots', () => {
  it('is the least count that keeps every cell ≥ 1/(4 × cells) of 20 rounds, undefined when none can', () => {
    expect(explorationSlots(2, 12)).toBe(1) // the default: 6 families × difficulties 1–2
    expect(explorationSlots(4, 6)).toBe(2) // the headline bench: ⌈20/6⌉ = 4 each, ⌊40/6⌋ = 6
    expect(explorationSlots(16, 12)).toBe(5)
    expect(explorationSlots(1, 20)).toBe(1)
    expect(explorationSlots(1, 21)).toBeUndefined() // 20 tasks cannot cover 21 cells
    expect(explorationSlots(2, 30)).toBe(2)
  })

  it('keeps every cell its share of any 20-round window, whatever the free slots hold', () => {
    const families = REASONING_FAMILIES.map((f) => f.name)
    let windows = 0
    for (const tasksPerRound of [1, 2, 4, 7, 16])
      for (const [min, max] of [
        [1, 1],
        [1, 2],
        [2, 4],
        [1, 5],
      ] as const) {
        for (const n of [1, 2, 6]) {
          const swarm = learningCells({
            sources: families.slice(0, n).map((family) => ({ kind: 'reasoning' as const, family })),
            difficulties: { min: min as Difficulty, max: max as Difficulty },
          })
          if (explorationSlots(tasksPerRound, swarm.length) === undefined) continue
          for (const peerId of ['peerA', 'peerB', 'peerC']) {
            const d = { swarmId: 'b'.repeat(64), peerId, tasksPerRound, cells: swarm }
            const e = tasksPerRound - freeSlots({ ...d, round: 0 })
            // the exploration cells of rounds 0–79; the free slots pile on one cell, the worst case
            const explored = Array.from({ length: 80 }, (_, round) =>
              Array.from({ length: e }, (_, slot) => cellKey(explorationCell({ ...d, round }, slot))),
            )
            const share = (SHARE_WINDOW_ROUNDS * tasksPerRound) / (4 * swarm.length)
            for (let start = 0; start + SHARE_WINDOW_ROUNDS <= 80; start++) {
              const window = explored.slice(start, start + SHARE_WINDOW_ROUNDS).flat()
              for (const cell of swarm)
                expect(window.filter((k) => k === cellKey(cell)).length).toBeGreaterThanOrEqual(share)
              windows++
            }
          }
        }
      }
    expect(windows).toBeGreaterThan(5_000)
  })
})

describe('slotInSendersDraw', () => {
  it("finds the sender's own tasks from public data alone, not another peer's, round's or seed", () => {
    for (const choice of cells) {
      const refs = roundTasks(draw, filled(draw, choice))
      for (const [slot, ref] of refs.entries()) {
        expect(slotInSendersDraw(draw, ref)).toBe(slot)
        expect(slotInSendersDraw({ ...draw, peerId: '12D3KooWother' }, ref)).toBeUndefined()
        expect(slotInSendersDraw({ ...draw, round: 8 }, ref)).toBeUndefined()
        expect(slotInSendersDraw(draw, { ...ref, seed: (ref.seed + 1) >>> 0 })).toBeUndefined()
        // the cell is part of the seed's key: the same seed declared as another cell is not drawn
        expect(slotInSendersDraw(draw, { ...ref, difficulty: 5 })).toBeUndefined()
      }
    }
  })

  it('refuses an exploration slot filled from a cell other than its rotation’s', () => {
    const d: RoundDraw = { ...draw, tasksPerRound: 1, cells: cells.slice(0, 2) }
    expect(freeSlots(d)).toBe(0)
    const rotation = explorationCell(d, 0)
    const other = cells.slice(0, 2).find((c) => cellKey(c) !== cellKey(rotation))!
    // a seed derived for slot 0 and the other cell, as a sender choosing it would derive it
    const forged = roundTasks({ ...d, cells: [other] }, [])[0]!
    expect(slotInSendersDraw(d, roundTasks(d, [])[0]!)).toBe(0)
    expect(slotInSendersDraw(d, forged)).toBeUndefined()
  })
})
