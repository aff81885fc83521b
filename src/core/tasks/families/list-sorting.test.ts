import { describe, expect, it } from 'vitest'
import { generateWorkedTask } from '../generate-reasoning-task.ts'
import { DIFFICULTIES } from '../task.ts'
import { insertionWorking } from './list-sorting.ts'

describe('list sorting working', () => {
  it('is the list sorted one more number at a time, up to the last one the answer adds', () => {
    for (const difficulty of DIFFICULTIES)
      for (let seed = 0; seed < 300; seed++) {
        const { task, working } = generateWorkedTask('list-sorting', difficulty, seed)
        const [, order, shown] = /in (\w+) order: (.*)\.$/m.exec(task.prompt)!
        const numbers = shown!.split(', ').map(Number)
        const sort = (xs: number[]) => [...xs].sort((a, b) => (order === 'descending' ? b - a : a - b))
        expect(working).toMatch(/\.$/)
        const prefixes = working!.slice(0, -1).split('; ')
        expect(prefixes).toHaveLength(numbers.length - 2)
        prefixes.forEach((prefix, i) =>
          expect(prefix.split(', ').map(Number), working).toEqual(sort(numbers.slice(0, i + 2))),
        )
        expect(sort(numbers).join(', ')).toBe(task.answer)
      }
  })

  it('starts from the first two in order', () => {
    expect(insertionWorking([5, 3, 17], false)).toBe('3, 5.')
    expect(insertionWorking([5, 3, 17, 1], true)).toBe('5, 3; 17, 5, 3.')
  })
})
