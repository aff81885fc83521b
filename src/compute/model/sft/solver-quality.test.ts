import { describe, expect, it } from 'vitest'
import { generateReasoningTask } from '../../../core/tasks/generate-reasoning-task.ts'
import { bestConstantAnswer, inTargetWindow, scoreCompletions } from './solver-quality.ts'

const logic = [0, 1, 2, 3, 4, 5, 6, 7].map((seed) => generateReasoningTask('propositional-logic', 1, seed))

describe('solver quality', () => {
  it('finds the answer most tasks share, in canonical form', () => {
    const trues = logic.filter((t) => t.answer === 'true').length
    const best = bestConstantAnswer(logic)
    expect(best.rate).toBe(Math.max(trues, logic.length - trues) / logic.length)
    expect(best.answer).toBe(trues >= logic.length - trues ? 'true' : 'false')
  })

  it('scores completions with the verifier: right, wrong and unformatted', () => {
    const completions = logic.map((t, i) =>
      i === 0 ? 'no tags' : `<answer>${i % 2 ? t.answer : String(t.answer !== 'true')}</answer>`,
    )
    expect(scoreCompletions(logic, completions)).toEqual({ tasks: 8, pass: 4 / 8, formatted: 7 / 8 })
    expect(() => scoreCompletions(logic, [])).toThrow(/one completion per task/)
  })

  it('puts the window at constant + 15 points up to 70%', () => {
    expect(inTargetWindow(0.3, 0.15)).toBe(true)
    expect(inTargetWindow(0.29, 0.15)).toBe(false)
    expect(inTargetWindow(0.7, 0.1)).toBe(false)
  })
})
