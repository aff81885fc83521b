import { describe, expect, it } from 'vitest'
import { isReservedPrompt } from '../tasks/reserved-prompts.ts'
import type { Task } from '../tasks/task.ts'
import { evaluateHeldOut, heldOutCells, TAB_HELD_OUT_PROMPTS } from './held-out-eval.ts'
import { createTaskJudge } from './task-judge.ts'

const sources = [
  { kind: 'reasoning' as const, family: 'arithmetic' },
  { kind: 'code' as const, family: 'add-two' },
  { kind: 'reasoning' as const, family: 'list-sorting' },
]

describe('the held-out evaluation', () => {
  it('is the same reserved set for everyone: the reasoning families at the difficulties drawn and the next', () => {
    const cells = heldOutCells(sources, { min: 2, max: 2 })
    expect(cells.map((c) => `${c.family}/${c.difficulty}`)).toEqual([
      'arithmetic/2',
      'arithmetic/3',
      'list-sorting/2',
      'list-sorting/3',
    ])
    for (const cell of cells) {
      // the tab's prompt budget shared out over the cells, so a narrow swarm's curve is no noisier
      expect(cell.tasks).toHaveLength(TAB_HELD_OUT_PROMPTS / 4)
      expect(cell.tasks.every((t) => isReservedPrompt(t.prompt))).toBe(true)
    }
    expect(heldOutCells(sources, { min: 1, max: 2 }).map((c) => c.difficulty)).toEqual([1, 2, 3, 1, 2, 3])
    expect(heldOutCells(sources, { min: 5, max: 5 }).map((c) => c.difficulty)).toEqual([5, 5])
    expect(heldOutCells([{ kind: 'code', family: 'add-two' }], { min: 1, max: 1 })).toEqual([])
    // rounded up: every cell gets its share of a budget that does not divide
    expect(heldOutCells(sources, { min: 2, max: 2 }, 10).map((c) => c.tasks.length)).toEqual([3, 3, 3, 3])
  })

  it('reports the uniform mix over cells with its interval and format failures', async () => {
    const cells = heldOutCells(sources, { min: 1, max: 1 }, 16)
    const arithmetic = new Set<Task>(cells[0]!.tasks.concat(cells[1]!.tasks))
    // right on every arithmetic task, unformatted on every sorting task
    const answer = async (task: Task) => ({
      text: arithmetic.has(task) && task.kind === 'reasoning' ? `<answer>${task.answer}</answer>` : 'no idea',
      tokens: 6,
    })
    const point = await evaluateHeldOut(cells, answer, createTaskJudge(16).correct, {
      round: 9,
      policyVersion: 4,
    })
    expect(point).toMatchObject({ round: 9, policyVersion: 4, pass1: 0.5, tasks: 16, formatFailures: 0.5 })
    // four cells of 4, each all right or all wrong, still leave the mix uncertain
    expect(point.ci95![0]).toBeGreaterThan(0.2)
    expect(point.ci95![0]).toBeLessThan(0.4)
    expect(point.ci95![1]).toBeCloseTo(1 - point.ci95![0], 12)
  })

  it('gives no point for a swarm without reasoning families', async () => {
    const point = await evaluateHeldOut(
      [],
      async () => ({ text: '', tokens: 0 }),
      async () => true,
      {
        round: 1,
        policyVersion: 0,
      },
    )
    expect(point).toEqual({ round: 1, policyVersion: 0, pass1: 0, tasks: 0 })
  })
})
