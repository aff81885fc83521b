// Propositional logic: the truth value of a formula under a given assignment. Difficulty adds variables,
// depth and the connectives -> and <->. Binary subformulas are always parenthesised, so no precedence
// convention is needed to read one. ASCII connectives keep the prompt easy for byte-level tokenizers.
import type { ReasoningFamily } from '../reasoning-family.ts'
import type { SeededRandom } from '../seeded-random.ts'
import type { Difficulty } from '../task.ts'

type Connective = 'and' | 'or' | '->' | '<->'
export type Formula =
  { variable: string } | { not: Formula } | { op: Connective; left: Formula; right: Formula }

const LEVELS: Record<Difficulty, { variables: number; depth: number; connectives: Connective[] }> = {
  1: { variables: 2, depth: 1, connectives: ['and', 'or'] },
  2: { variables: 2, depth: 2, connectives: ['and', 'or'] },
  3: { variables: 3, depth: 2, connectives: ['and', 'or', '->'] },
  4: { variables: 4, depth: 3, connectives: ['and', 'or', '->', '<->'] },
  5: { variables: 5, depth: 4, connectives: ['and', 'or', '->', '<->'] },
}

const VARIABLES = ['P', 'Q', 'R', 'S', 'T']

/** A random formula at most `depth` connectives deep; the top one always has a connective. */
function build(
  random: SeededRandom,
  depth: number,
  names: string[],
  connectives: Connective[],
  top = true,
): Formula {
  if (depth === 0 || (!top && random.int(0, 3) === 0)) {
    const leaf = { variable: random.pick(names) }
    return random.int(0, 2) === 0 ? { not: leaf } : leaf
  }
  const formula: Formula = {
    op: random.pick(connectives),
    left: build(random, depth - 1, names, connectives, false),
    right: build(random, depth - 1, names, connectives, false),
  }
  return random.int(0, 4) === 0 ? { not: formula } : formula
}

function connective(op: Connective, a: boolean, b: boolean): boolean {
  if (op === 'and') return a && b
  if (op === 'or') return a || b
  if (op === '->') return !a || b
  return a === b
}

function evaluate(f: Formula, values: Map<string, boolean>): boolean {
  if ('variable' in f) return values.get(f.variable)!
  if ('not' in f) return !evaluate(f.not, values)
  return connective(f.op, evaluate(f.left, values), evaluate(f.right, values))
}

function print(f: Formula): string {
  if ('variable' in f) return f.variable
  if ('not' in f) return `not ${print(f.not)}`
  return `(${print(f.left)} ${f.op} ${print(f.right)})`
}

/**
 * The formula's value from the inside out, each connective with its operands' values in place, a
 * negated operand as "not" and its value: (not P and Q) with P = true, Q = false → "not true and false
 * = false." Every fact is a line of a truth table (a few dozen in all), where the formula is one of
 * thousands. A negation is a fact of its own only at the top: inside its connective's fact it keeps
 * difficulty 2 within the 128-token context beside its long prompt (docs/solver-model.md).
 */
export function evaluationWorking(f: Formula, values: Map<string, boolean>): string {
  const facts: string[] = []
  /** How an operand is shown in its connective's fact, and its value. */
  const operand = (node: Formula): { shown: string; value: boolean } => {
    if ('not' in node) {
      const inner = walk(node.not)
      return { shown: `not ${inner}`, value: !inner }
    }
    const value = walk(node)
    return { shown: `${value}`, value }
  }
  const walk = (node: Formula): boolean => {
    if ('variable' in node) return values.get(node.variable)!
    if ('not' in node) {
      const inner = walk(node.not)
      facts.push(`not ${inner} = ${!inner}`)
      return !inner
    }
    const [a, b] = [operand(node.left), operand(node.right)]
    const value = connective(node.op, a.value, b.value)
    facts.push(`${a.shown} ${node.op} ${b.shown} = ${value}`)
    return value
  }
  walk(f)
  return `${facts.join(', ')}.`
}

const TRUE = new Set(['true', 't', '1', 'yes'])
const FALSE = new Set(['false', 'f', '0', 'no'])

export const propositionalLogic: ReasoningFamily = {
  name: 'propositional-logic',
  answerFormat: 'true or false',
  generate(random, difficulty) {
    const { variables, depth, connectives } = LEVELS[difficulty]
    const names = VARIABLES.slice(0, variables)
    const values = new Map(names.map((name) => [name, random.bool()]))
    const formula = build(random, depth, names, connectives)
    const assignment = names.map((name) => `${name} = ${values.get(name)}`).join(', ')
    return {
      question:
        `Let ${assignment}. "A -> B" means "if A then B" and "A <-> B" means "A if and only if B". ` +
        `Is the formula ${print(formula)} true or false?`,
      answer: String(evaluate(formula, values)),
      working: evaluationWorking(formula, values),
    }
  },
  canonical(answer) {
    const word = answer.trim().toLowerCase().replace(/\.$/, '')
    return TRUE.has(word) ? 'true' : FALSE.has(word) ? 'false' : undefined
  },
}
