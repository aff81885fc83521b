// Basic arithmetic: an integer expression to evaluate. Difficulty adds operands, larger numbers,
// multiplication, then parentheses and negative numbers. Evaluated with bigint, so no answer is rounded.
import { canonicalInteger } from '../integer-answer.ts'
import type { ReasoningFamily } from '../reasoning-family.ts'
import type { SeededRandom } from '../seeded-random.ts'
import type { Difficulty } from '../task.ts'

type Op = '+' | '-' | '*'
type Expr = { value: bigint } | { op: Op; left: Expr; right: Expr }

const LEVELS: Record<Difficulty, { operands: number; max: number; ops: Op[]; negatives: boolean }> = {
  1: { operands: 2, max: 20, ops: ['+', '-'], negatives: false },
  2: { operands: 3, max: 50, ops: ['+', '-', '*'], negatives: false },
  3: { operands: 4, max: 100, ops: ['+', '-', '*'], negatives: false },
  4: { operands: 5, max: 500, ops: ['+', '-', '*'], negatives: true },
  5: { operands: 6, max: 1000, ops: ['+', '-', '*'], negatives: true },
}

const PRECEDENCE: Record<Op, number> = { '+': 1, '-': 1, '*': 2 }

function build(random: SeededRandom, operands: number, level: (typeof LEVELS)[Difficulty]): Expr {
  if (operands === 1) {
    const n = random.int(1, level.max)
    return { value: BigInt(level.negatives && random.int(0, 3) === 0 ? -n : n) }
  }
  const leftCount = random.int(1, operands - 1)
  return {
    op: random.pick(level.ops),
    left: build(random, leftCount, level),
    right: build(random, operands - leftCount, level),
  }
}

function evaluate(e: Expr): bigint {
  if ('value' in e) return e.value
  const [a, b] = [evaluate(e.left), evaluate(e.right)]
  return e.op === '+' ? a + b : e.op === '-' ? a - b : a * b
}

/** Parentheses only where precedence or the left-to-right rule needs them. */
function print(e: Expr): string {
  if ('value' in e) return e.value < 0n ? `(${e.value})` : `${e.value}`
  const side = (child: Expr, right: boolean) => {
    if ('value' in child) return print(child)
    const needs =
      PRECEDENCE[child.op] < PRECEDENCE[e.op] ||
      (right && PRECEDENCE[child.op] === PRECEDENCE[e.op] && e.op === '-')
    return needs ? `(${print(child)})` : print(child)
  }
  return `${side(e.left, false)} ${e.op} ${side(e.right, true)}`
}

export const arithmetic: ReasoningFamily = {
  name: 'arithmetic',
  answerFormat: 'an integer',
  generate(random, difficulty) {
    const level = LEVELS[difficulty]
    const expr = build(random, level.operands, level)
    return { question: `Calculate ${print(expr)}.`, answer: evaluate(expr).toString() }
  },
  canonical: canonicalInteger,
}
