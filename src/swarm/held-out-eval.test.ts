import { describe, expect, it } from 'vitest'
import { evaluateHeldOut, heldOutTasks, HELD_OUT_TASKS } from './held-out-eval.ts'
import { createTaskJudge } from './task-judge.ts'

const sources = [
  { kind: 'reasoning' as const, family: 'arithmetic' },
  { kind: 'reasoning' as const, family: 'list-sorting' },
]

describe('the held-out evaluation', () => {
  it('is the same fixed set for everyone: the families in turn at the given difficulty', () => {
    const tasks = heldOutTasks(sources, 2)
    expect(tasks).toHaveLength(HELD_OUT_TASKS)
    expect(tasks.map((t) => t.family).slice(0, 4)).toEqual([
      'arithmetic',
      'list-sorting',
      'arithmetic',
      'list-sorting',
    ])
    expect(tasks.every((t) => t.difficulty === 2)).toBe(true)
    expect(heldOutTasks(sources, 2).map((t) => t.id)).toEqual(tasks.map((t) => t.id))
    expect(() => heldOutTasks([], 1)).toThrow('at least one task family')
  })

  it('reports greedy pass@1 at the round and policy version given', async () => {
    const tasks = heldOutTasks(sources, 1, 4)
    // right on the first two tasks only
    const answer = async (task: (typeof tasks)[number]) => {
      const i = tasks.indexOf(task)
      const text =
        i < 2 && task.kind === 'reasoning' ? `<answer>${task.answer}</answer>` : '<answer>x</answer>'
      return { text, tokens: 6 }
    }
    const point = await evaluateHeldOut(tasks, answer, createTaskJudge(16).correct, {
      round: 9,
      policyVersion: 4,
    })
    expect(point).toEqual({ round: 9, policyVersion: 4, pass1: 0.5, tasks: 4 })
  })
})
