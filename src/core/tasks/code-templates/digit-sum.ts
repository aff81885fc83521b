import { callCount, type CodeTemplate } from '../code-template.ts'

// Past 2^31 at the top, where 32-bit tricks (n | 0, n >> 1) give wrong digits.
const MAX_N = [0, 99, 9_999, 999_999, 2 ** 30, 2 ** 32 - 1]

export const digitSum: CodeTemplate = {
  name: 'digit-sum',
  signature: 'digitSum(n)',
  generate(random, difficulty) {
    const base = difficulty === 1 ? 10 : random.int(2, 16)
    const sum = (n: number) =>
      [...n.toString(base)].reduce((total, digit) => total + parseInt(digit, base), 0)
    const ns = Array.from({ length: callCount(difficulty) }, (_, i) =>
      i === 1 ? 0 : random.int(0, MAX_N[difficulty]!),
    )
    return {
      statement: `that returns the sum of the digits of the non-negative integer n written in base ${base}.`,
      calls: ns.map((n) => ({ args: [n], expected: sum(n) })),
      solution: `function digitSum(n) {
  let total = 0
  for (; n > 0; n = Math.floor(n / ${base})) total += n % ${base}
  return total
}`,
    }
  },
}
