import { describe, expect, it } from 'vitest'
import { generateReasoningTask, generateWorkedTask } from '../generate-reasoning-task.ts'
import { DIFFICULTIES } from '../task.ts'
import { expressionWorking, type Expr } from './arithmetic.ts'

/** The expression as the prompt shows it, evaluated by JavaScript itself with bigint literals. */
function evaluateShown(prompt: string): string {
  const expression = /^Calculate (.*)\.$/m.exec(prompt)![1]!
  return String(new Function(`return ${expression.replace(/\d+/g, '$&n')}`)())
}

/** Checks every fact "a op b = c" of a working and returns the value of its last one. */
function checkFacts(working: string): bigint {
  expect(working).toMatch(/\.$/)
  let last: bigint | undefined
  for (const fact of working.slice(0, -1).split(', ')) {
    const parts = /^(-?\d+) ([-+*]) (-?\d+) = (-?\d+)$/.exec(fact)
    expect(parts, `"${fact}" in "${working}"`).not.toBeNull()
    const [a, b, c] = [parts![1]!, parts![3]!, parts![4]!].map(BigInt)
    const op = parts![2]
    expect(c, `"${fact}" in "${working}"`).toBe(op === '+' ? a! + b! : op === '-' ? a! - b! : a! * b!)
    last = c
  }
  return last!
}

describe('arithmetic', () => {
  it('prints expressions whose usual reading (precedence, left to right) gives the answer', () => {
    for (const difficulty of DIFFICULTIES)
      for (let seed = 0; seed < 200; seed++) {
        const task = generateReasoningTask('arithmetic', difficulty, seed)
        expect(evaluateShown(task.prompt), task.prompt).toBe(task.answer)
      }
  })

  it('writes a working of true facts that ends on the answer', () => {
    for (const difficulty of DIFFICULTIES)
      for (let seed = 0; seed < 300; seed++) {
        const { task, working } = generateWorkedTask('arithmetic', difficulty, seed)
        expect(`${checkFacts(working!)}`, task.prompt).toBe(task.answer)
      }
  })

  it('adds and subtracts a two-digit number tens first, then units, and multiplies in one fact', () => {
    const n = (value: bigint): Expr => ({ value })
    expect(expressionWorking({ op: '+', left: n(17n), right: n(15n) })).toBe('17 + 10 = 27, 27 + 5 = 32.')
    expect(expressionWorking({ op: '-', left: n(3n), right: n(15n) })).toBe('3 - 10 = -7, -7 - 5 = -12.')
    expect(expressionWorking({ op: '+', left: n(7n), right: n(20n) })).toBe('7 + 20 = 27.')
    // 40 - (3 - 15): the right side's sign goes into the operator
    const inner: Expr = { op: '-', left: n(3n), right: n(15n) }
    expect(expressionWorking({ op: '-', left: n(40n), right: inner })).toBe(
      '3 - 10 = -7, -7 - 5 = -12, 40 + 10 = 50, 50 + 2 = 52.',
    )
    expect(expressionWorking({ op: '*', left: n(12n), right: n(34n) })).toBe('12 * 34 = 408.')
  })
})
