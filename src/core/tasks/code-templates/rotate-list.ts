import { callCount, type CodeTemplate } from '../code-template.ts'

export const rotateList: CodeTemplate = {
  name: 'rotate-list',
  signature: 'rotateList(xs, k)',
  generate(random, difficulty) {
    const right = random.bool()
    const rotate = (xs: number[], k: number) => {
      if (xs.length === 0) return []
      const shift = (right ? xs.length - (k % xs.length) : k % xs.length) % xs.length
      return [...xs.slice(shift), ...xs.slice(0, shift)]
    }
    const calls = Array.from({ length: callCount(difficulty) }, () => {
      const xs = Array.from({ length: random.int(difficulty > 1 ? 0 : 1, 3 * difficulty) }, () =>
        random.int(-20, 99),
      )
      // From difficulty 3 on, k may exceed the length: the solution must wrap around.
      const k = random.int(0, difficulty >= 3 ? 4 * difficulty : Math.max(xs.length, 1))
      return { args: [xs, k], expected: rotate(xs, k) }
    })
    return {
      statement: `that returns a new array: the array xs rotated k places to the ${right ? 'right' : 'left'} (k ≥ 0; an empty array stays empty).`,
      calls,
      solution: `function rotateList(xs, k) {
  if (xs.length === 0) return []
  const shift = (${right ? 'xs.length - (k % xs.length)' : 'k % xs.length'}) % xs.length
  return [...xs.slice(shift), ...xs.slice(0, shift)]
}`,
    }
  },
}
