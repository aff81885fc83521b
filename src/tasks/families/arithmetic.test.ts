import { describe, expect, it } from 'vitest'
import { generateReasoningTask } from '../generate-reasoning-task.ts'
import { DIFFICULTIES } from '../task.ts'

/** The expression as the prompt shows it, evaluated by JavaScript itself with bigint literals. */
function evaluateShown(prompt: string): string {
  const expression = /^Calculate (.*)\.$/m.exec(prompt)![1]!
  return String(new Function(`return ${expression.replace(/\d+/g, '$&n')}`)())
}

describe('arithmetic', () => {
  it('prints expressions whose usual reading (precedence, left to right) gives the answer', () => {
    for (const difficulty of DIFFICULTIES)
      for (let seed = 0; seed < 200; seed++) {
        const task = generateReasoningTask('arithmetic', difficulty, seed)
        expect(evaluateShown(task.prompt), task.prompt).toBe(task.answer)
      }
  })
})
