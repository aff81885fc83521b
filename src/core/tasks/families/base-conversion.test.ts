import { describe, expect, it } from 'vitest'
import { generateWorkedTask } from '../generate-reasoning-task.ts'
import { DIFFICULTIES } from '../task.ts'
import { conversionWorking } from './base-conversion.ts'

/** A digit fact ("0110 = 6", "12 = c") is true if its sides name one value in bases 2, 10 or 16. */
function namesOneValue(left: string, right: string): boolean {
  const readings = (text: string) =>
    [2, 10, 16]
      .filter((base) => new RegExp(`^[${'0123456789abcdef'.slice(0, base)}]+$`).test(text))
      .map((base) => parseInt(text, base))
  const rights = readings(right)
  return readings(left).some((value) => rights.includes(value))
}

/** Checks every fact of a conversion's working and reads the answer off it (see conversionWorking). */
function checkAndRead(working: string, n: number, to: number): string {
  expect(working).toMatch(/\.$/)
  const divisions: { q: number; r: number }[] = []
  const digitFacts: string[] = []
  let divisor: number | undefined
  let lastValue: number | undefined
  for (const fact of working.slice(0, -1).split(', ')) {
    const where = `"${fact}" in "${working}"`
    const division = /^(\d+) = (\d+) \* (\d+) \+ (\d+)$/.exec(fact)
    const horner = /^(\d+) \* (\d+) \+ (\d+) = (\d+)$/.exec(fact)
    const digit = /^([0-9a-f]+) = ([0-9a-f]+)$/.exec(fact)
    expect(division ?? horner ?? digit, where).not.toBeNull()
    if (division) {
      const [m, q, base, r] = division.slice(1).map(Number) as [number, number, number, number]
      expect(m === q * base + r && r < base, where).toBe(true)
      // the divisions are by the target base, or by 16 on the way from decimal to binary
      expect(base === to || (to === 2 && base === 16), where).toBe(true)
      divisor = base
      // each division takes the previous one's quotient, starting from n
      expect(m, where).toBe(divisions.length === 0 ? n : divisions.at(-1)!.q)
      divisions.push({ q, r })
    } else if (horner) {
      const [a, base, d, value] = horner.slice(1).map(Number) as [number, number, number, number]
      expect(d < base && value === a * base + d, where).toBe(true)
      lastValue = value
    } else {
      expect(namesOneValue(digit![1]!, digit![2]!), where).toBe(true)
      digitFacts.push(digit![2]!)
      lastValue = parseInt(digit![2]!, 10)
    }
  }
  if (to === 10) return `${lastValue}`
  if (divisions.length === 0) return digitFacts.join('')
  const digits = [divisions.at(-1)!.q, ...divisions.map((d) => d.r).reverse()]
  if (divisor === to) return digits.map((d) => d.toString(to)).join('')
  // through hexadecimal to binary: each digit's four-bit group, in order, after the divisions
  expect(digitFacts).toHaveLength(digits.length)
  return digitFacts.join('')
}

describe('base conversion working', () => {
  it('is a chain of true facts that the answer is read off', () => {
    for (const difficulty of DIFFICULTIES)
      for (let seed = 0; seed < 300; seed++) {
        const { task, working } = generateWorkedTask('base-conversion', difficulty, seed)
        const [, from, shown, to] = /base (\d+)(?: \(\w+\))? number (\w+) to base (\d+)/.exec(task.prompt)!
        const n = parseInt(shown!, Number(from))
        if (working === undefined) {
          expect(n < 10 && task.answer, task.prompt).toBe(shown)
          continue
        }
        expect(checkAndRead(working, n, Number(to)), `${task.prompt} ${working}`).toBe(task.answer)
      }
  })

  it('meets binary and hexadecimal in groups of four bits, also on the way to and from decimal', () => {
    expect(conversionWorking(22, 10, 2)).toBe('22 = 1 * 16 + 6, 1 = 1, 6 = 0110.')
    expect(conversionWorking(0b11010, 2, 10)).toBe('1 = 1, 1010 = 10, 1 * 16 + 10 = 26.')
    expect(conversionWorking(0xf6, 16, 2)).toBe('f = 1111, 6 = 0110.')
    expect(conversionWorking(0b101100, 2, 16)).toBe('10 = 2, 1100 = c.')
    expect(conversionWorking(200, 10, 16)).toBe('200 = 12 * 16 + 8, 12 = c.')
    expect(conversionWorking(0xc8, 16, 10)).toBe('c = 12, 12 * 16 + 8 = 200.')
    expect(conversionWorking(9, 16, 10)).toBeUndefined()
  })
})
