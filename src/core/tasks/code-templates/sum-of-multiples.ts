import { callCount, type CodeTemplate } from '../code-template.ts'

const MAX_N = [0, 30, 100, 1_000, 10_000, 100_000]

export const sumOfMultiples: CodeTemplate = {
  name: 'sum-of-multiples',
  signature: 'sumOfMultiples(n)',
  generate(random, difficulty) {
    const a = random.int(2, 9)
    const b = random.pick([2, 3, 4, 5, 6, 7, 8, 9].filter((x) => x !== a))
    const solve = (n: number) => {
      let sum = 0
      for (let i = 1; i < n; i++) if (i % a === 0 || i % b === 0) sum += i
      return sum
    }
    const ns = Array.from({ length: callCount(difficulty) }, (_, i) =>
      i === 1 && difficulty > 1 ? 0 : random.int(1, MAX_N[difficulty]!),
    )
    return {
      statement: `that returns the sum of all positive integers below n that are divisible by ${a} or by ${b}.`,
      calls: ns.map((n) => ({ args: [n], expected: solve(n) })),
      solution: `function sumOfMultiples(n) {
  let sum = 0
  for (let i = 1; i < n; i++) if (i % ${a} === 0 || i % ${b} === 0) sum += i
  return sum
}`,
    }
  },
}
