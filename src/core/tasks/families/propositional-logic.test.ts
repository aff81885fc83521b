import { describe, expect, it } from 'vitest'
import { generateWorkedTask } from '../generate-reasoning-task.ts'
import { DIFFICULTIES } from '../task.ts'

const VALUE = { true: true, false: false } as const
const operand = (text: string) => {
  const [, not, value] = /^(not )?(true|false)$/.exec(text)!
  return not ? !VALUE[value as 'true'] : VALUE[value as 'true']
}
const CONNECTIVES: Record<string, (a: boolean, b: boolean) => boolean> = {
  and: (a, b) => a && b,
  or: (a, b) => a || b,
  '->': (a, b) => !a || b,
  '<->': (a, b) => a === b,
}

/** Checks every fact of a working (a truth-table line) and returns the value of its last one. */
function checkFacts(working: string): boolean {
  expect(working).toMatch(/\.$/)
  let last: boolean | undefined
  for (const fact of working.slice(0, -1).split(', ')) {
    const binary =
      /^((?:not )?(?:true|false)) (and|or|->|<->) ((?:not )?(?:true|false)) = (true|false)$/.exec(fact)
    const negation = /^(not (?:true|false)) = (true|false)$/.exec(fact)
    expect(binary ?? negation, `"${fact}" in "${working}"`).not.toBeNull()
    const value = binary
      ? CONNECTIVES[binary[2]!]!(operand(binary[1]!), operand(binary[3]!))
      : operand(negation![1]!)
    expect(value, `"${fact}" in "${working}"`).toBe(operand((binary?.[4] ?? negation![2])!))
    last = value
  }
  return last!
}

describe('propositional logic working', () => {
  it('is a chain of true truth-table lines that ends on the answer', () => {
    for (const difficulty of DIFFICULTIES)
      for (let seed = 0; seed < 300; seed++) {
        const { task, working } = generateWorkedTask('propositional-logic', difficulty, seed)
        expect(`${checkFacts(working!)}`, task.prompt).toBe(task.answer)
      }
  })

  it('evaluates inside out with negated operands in place', () => {
    for (let seed = 0; ; seed++) {
      const { task, working } = generateWorkedTask('propositional-logic', 1, seed)
      const [, p, q] = /Let P = (\w+), Q = (\w+)\./.exec(task.prompt)!
      if (!/formula \(not P and Q\) true/.test(task.prompt)) continue
      expect(working).toBe(`not ${p} and ${q} = ${!(p === 'true') && q === 'true'}.`)
      break
    }
  })
})
