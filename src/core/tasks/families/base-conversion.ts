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

/** Binary digits in groups of four from the right: 10110 → ["1", "0110"]. */
function nibbles(n: number): string[] {
  const bits = n.toString(2)
  const lead = bits.length % 4 || 4
  const groups = [bits.slice(0, lead)]
  for (let i = lead; i < bits.length; i += 4) groups.push(bits.slice(i, i + 4))
  return groups
}

/** n's digits in `base`, most significant first: divisions "n = q * base + r" while n ≥ base. */
function divisionFacts(n: number, base: number): { facts: string[]; digits: number[] } {
  const facts: string[] = []
  const remainders: number[] = []
  while (n >= base) {
    const [q, r] = [Math.floor(n / base), n % base]
    facts.push(`${n} = ${q} * ${base} + ${r}`)
    remainders.push(r)
    n = q
  }
  return { facts, digits: [n, ...remainders.reverse()] }
}

/** The value of `digits` (most significant first) in `base`, left to right: "acc * base + d = next". */
function hornerFacts(digits: readonly number[], base: number): string[] {
  const facts: string[] = []
  let acc = digits[0]!
  for (const d of digits.slice(1)) {
    facts.push(`${acc} * ${base} + ${d} = ${acc * base + d}`)
    acc = acc * base + d
  }
  return facts
}

/** For every digit above 9, the step between its value and its letter: written "12 = c", read "c = 12". */
const lettersWritten = (digits: readonly number[]) =>
  digits.filter((d) => d >= 10).map((d) => `${d} = ${d.toString(16)}`)
const lettersRead = (digits: readonly number[]) =>
  digits.filter((d) => d >= 10).map((d) => `${d.toString(16)} = ${d}`)

/** A hexadecimal digit's four bits, the leading digit's without its leading zeros. */
const bitsOf = (digit: number, leading: boolean) => digit.toString(2).padStart(leading ? 1 : 4, '0')

/**
 * n from base `from` to base `to` in small facts that recur. Binary and hexadecimal meet through
 * groups of four bits ("0110 = 6", one of sixteen), so binary ↔ decimal goes through hexadecimal too
 * and needs only the facts "q * 16 + r" with q, r < 16 — 22 decimal to binary is
 * "22 = 1 * 16 + 6, 1 = 1, 6 = 0110." — where binary's own chain of doublings or halvings would be
 * twice as long. Other bases take the generic road: the value by Horner's rule, then divisions.
 */
export function conversionWorking(n: number, from: number, to: number): string | undefined {
  const facts: string[] = []
  const binaryOrHex = (base: number) => base === 2 || base === 16
  if (binaryOrHex(from) && (binaryOrHex(to) || to === 10)) {
    const groups = from === 2 ? nibbles(n) : [...n.toString(16)]
    const hexDigits = groups.map((g) => parseInt(g, from))
    if (from === 2)
      groups.forEach((g, i) => facts.push(`${g} = ${hexDigits[i]!.toString(to === 16 ? 16 : 10)}`))
    if (to === 2) groups.forEach((g, i) => facts.push(`${g} = ${bitsOf(hexDigits[i]!, i === 0)}`))
    if (to === 10) {
      if (from === 16) facts.push(...lettersRead(hexDigits))
      facts.push(...hornerFacts(hexDigits, 16))
    }
  } else if (from === 10 && binaryOrHex(to)) {
    const { facts: divisions, digits } = divisionFacts(n, 16)
    facts.push(...divisions)
    if (to === 16) facts.push(...lettersWritten(digits))
    else digits.forEach((d, i) => facts.push(`${d} = ${bitsOf(d, i === 0)}`))
  } else {
    const sourceDigits = [...n.toString(from)].map((c) => parseInt(c, from))
    if (from !== 10) facts.push(...lettersRead(sourceDigits), ...hornerFacts(sourceDigits, from))
    if (to !== 10) {
      const { facts: divisions, digits } = divisionFacts(n, to)
      facts.push(...divisions, ...lettersWritten(digits))
    }
  }
  // a one-digit number below ten reads the same in both bases: nothing to work out
  return facts.length === 0 ? undefined : `${facts.join(', ')}.`
}

export const baseConversion: ReasoningFamily = {
  name: 'base-conversion',
  answerFormat: 'the digits of the number in the target base, using a-f for digits above 9, without a prefix',
  generate(random, difficulty) {
    const { bases, max } = LEVELS[difficulty]
    const from = random.pick(bases)
    const to = random.pick(bases.filter((b) => b !== from))
    const n = random.int(difficulty === 1 ? 2 : 8, max)
    const working = conversionWorking(n, from, to)
    return {
      question: `Convert the ${baseName(from)} number ${n.toString(from)} to ${baseName(to)}.`,
      answer: n.toString(to),
      ...(working === undefined ? {} : { working }),
    }
  },
  canonical(answer) {
    const digits = answer.replace(/[\s_]/g, '').toLowerCase().replace(/^0x/, '')
    if (!/^[0-9a-f]+$/.test(digits)) return undefined
    return digits.replace(/^0+(?=.)/, '')
  },
}
