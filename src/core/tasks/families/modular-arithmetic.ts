// Modular arithmetic: a residue in [0, m). Difficulty goes from a single remainder through sums and
// products to powers with large exponents and, at the top, modular inverses.
import { modInverse, mod, modPow } from '../bigint-math.ts'
import { canonicalInteger } from '../integer-answer.ts'
import type { ReasoningFamily } from '../reasoning-family.ts'
import type { SeededRandom } from '../seeded-random.ts'
import type { Difficulty } from '../task.ts'

const PRIMES = [5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97]

type Question = { text: string; answer: bigint; working?: string }

/**
 * a mod m in small facts, tens first: 137 mod 12 → "130 mod 12 = 10, 10 + 7 = 17, 17 mod 12 = 5."
 * Each fact is one of a few hundred that recur across questions (a multiple of ten mod m, a one-digit
 * sum, a remainder below 2m), where the question itself is one of thousands. For a ≥ 0.
 */
export function remainderWorking(a: bigint, m: bigint): string {
  const [tens, units] = [a - (a % 10n), a % 10n]
  const facts = tens === 0n ? [] : [`${tens} mod ${m} = ${tens % m}`]
  const sum = (tens % m) + units
  if (tens !== 0n && units !== 0n) facts.push(`${tens % m} + ${units} = ${sum}`)
  if (tens === 0n || (units !== 0n && sum >= m)) facts.push(`${sum} mod ${m} = ${sum % m}`)
  return `${facts.join(', ')}.`
}

const compute = (expression: string) =>
  `Compute ${expression}. The result is in 0 … m - 1, also for negative numbers.`

const LEVELS: Record<Difficulty, (random: SeededRandom) => Question> = {
  1: (random) => {
    const [a, m] = [BigInt(random.int(10, 200)), BigInt(random.int(3, 12))]
    return { text: compute(`${a} mod ${m}`), answer: mod(a, m), working: remainderWorking(a, m) }
  },
  2: (random) => {
    const [a, b, m] = [BigInt(random.int(10, 500)), BigInt(random.int(10, 500)), BigInt(random.int(3, 20))]
    const product = random.bool()
    return {
      text: compute(`(${a} ${product ? '*' : '+'} ${b}) mod ${m}`),
      answer: mod(product ? a * b : a + b, m),
    }
  },
  3: (random) => {
    const [a, e, m] = [BigInt(random.int(2, 30)), BigInt(random.int(2, 12)), BigInt(random.int(5, 50))]
    return { text: compute(`${a}^${e} mod ${m}`), answer: modPow(a, e, m) }
  },
  4: (random) => {
    const [a, e, m] = [BigInt(random.int(2, 100)), BigInt(random.int(20, 2000)), BigInt(random.int(7, 100))]
    const b = BigInt(-random.int(1, 1000))
    return { text: compute(`(${a}^${e} + (${b})) mod ${m}`), answer: mod(modPow(a, e, m) + b, m) }
  },
  5: (random) => {
    const m = BigInt(random.pick(PRIMES))
    const a = BigInt(random.int(2, Number(m) - 1))
    return {
      text: `Find the inverse of ${a} modulo ${m}: the x in 0 … ${m - 1n} with ${a} * x ≡ 1 (mod ${m}).`,
      answer: modInverse(a, m),
    }
  },
}

export const modularArithmetic: ReasoningFamily = {
  name: 'modular-arithmetic',
  answerFormat: 'an integer from 0 to m - 1',
  generate(random, difficulty) {
    const { text, answer, working } = LEVELS[difficulty](random)
    return { question: text, answer: `${answer}`, ...(working === undefined ? {} : { working }) }
  },
  canonical: canonicalInteger,
}
