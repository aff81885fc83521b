// Base conversion: write a number given in one base in another. Difficulty widens the bases (2/10 →
// 2…16) and the numbers. Digits above 9 are the letters a–f; answers are compared without case, a 0x
// prefix or leading zeros (none of which is ambiguous in bases up to 16).
import type { ReasoningFamily } from '../reasoning-family.ts'
import type { Difficulty } from '../task.ts'

const LEVELS: Record<Difficulty, { bases: number[]; max: number }> = {
  1: { bases: [2, 10], max: 31 },
  2: { bases: [2, 10, 16], max: 255 },
  3: { bases: [2, 8, 10, 16], max: 4095 },
  4: { bases: [2, 3, 5, 8, 10, 12, 16], max: 65_535 },
  5: { bases: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], max: 2 ** 24 - 1 },
}

const NAMES: Record<number, string> = { 2: 'binary', 8: 'octal', 10: 'decimal', 16: 'hexadecimal' }
const baseName = (base: number) => (NAMES[base] ? `base ${base} (${NAMES[base]})` : `base ${base}`)

export const baseConversion: ReasoningFamily = {
  name: 'base-conversion',
  answerFormat: 'the digits of the number in the target base, using a-f for digits above 9, without a prefix',
  generate(random, difficulty) {
    const { bases, max } = LEVELS[difficulty]
    const from = random.pick(bases)
    const to = random.pick(bases.filter((b) => b !== from))
    const n = random.int(difficulty === 1 ? 2 : 8, max)
    return {
      question: `Convert the ${baseName(from)} number ${n.toString(from)} to ${baseName(to)}.`,
      answer: n.toString(to),
    }
  },
  canonical(answer) {
    const digits = answer.replace(/[\s_]/g, '').toLowerCase().replace(/^0x/, '')
    if (!/^[0-9a-f]+$/.test(digits)) return undefined
    return digits.replace(/^0+(?=.)/, '')
  },
}
