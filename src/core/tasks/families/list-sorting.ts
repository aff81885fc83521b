// Sorting: a list of integers in ascending or descending order. Difficulty lengthens the list, widens
// the range and adds negatives and duplicates. Brackets and commas or spaces between items are accepted.
import type { ReasoningFamily } from '../reasoning-family.ts'
import type { Difficulty } from '../task.ts'

const LEVELS: Record<Difficulty, { length: number; min: number; max: number }> = {
  1: { length: 3, min: 0, max: 20 },
  2: { length: 5, min: 0, max: 99 },
  3: { length: 7, min: -50, max: 99 },
  4: { length: 10, min: -500, max: 500 },
  5: { length: 14, min: -999, max: 999 },
}

/**
 * Insertion sort, one number at a time: the first two in order, then each next one put in its place —
 * 5, 3, 17, 1 → "3, 5; 3, 5, 17." and the answer adds the last. Each step places one number among a
 * few already in order, a comparison the model makes again and again, where the whole order at once
 * is a fact about every number of the list.
 */
export function insertionWorking(numbers: readonly number[], descending: boolean): string {
  const prefixes: string[] = []
  for (let length = 2; length < numbers.length; length++)
    prefixes.push(
      numbers
        .slice(0, length)
        .sort((a, b) => (descending ? b - a : a - b))
        .join(', '),
    )
  return `${prefixes.join('; ')}.`
}

export const listSorting: ReasoningFamily = {
  name: 'list-sorting',
  answerFormat: 'the sorted numbers separated by commas',
  generate(random, difficulty) {
    const { length, min, max } = LEVELS[difficulty]
    const numbers = Array.from({ length }, () => random.int(min, max))
    const descending = difficulty > 1 && random.bool()
    const sorted = [...numbers].sort((a, b) => (descending ? b - a : a - b))
    return {
      question: `Sort these numbers in ${descending ? 'descending' : 'ascending'} order: ${numbers.join(', ')}.`,
      answer: sorted.join(', '),
      working: insertionWorking(numbers, descending),
    }
  },
  canonical(answer) {
    const items = answer
      .trim()
      .replace(/^\[(.*)\]$/s, '$1')
      .split(/\s*[,;\s]\s*/)
      .filter((item) => item !== '')
    if (items.length === 0 || !items.every((item) => /^[+-]?\d+$/.test(item))) return undefined
    return items.map((item) => BigInt(item).toString()).join(',')
  },
}
