// Fraction simplification: reduce p/q to lowest terms. Difficulty raises the size of the reduced
// fraction and of the common factor, then adds negative signs. An answer must itself be in lowest terms
// (4/6 is not a simplification of 8/12), with the sign on either part or in front; n/1 may be written n.
import { gcd } from '../bigint-math.ts'
import type { ReasoningFamily } from '../reasoning-family.ts'
import type { Difficulty } from '../task.ts'

const LEVELS: Record<Difficulty, { part: number; factor: number; negatives: boolean }> = {
  1: { part: 9, factor: 5, negatives: false },
  2: { part: 20, factor: 10, negatives: false },
  3: { part: 50, factor: 30, negatives: false },
  4: { part: 100, factor: 60, negatives: true },
  5: { part: 300, factor: 200, negatives: true },
}

function written(p: bigint, q: bigint): string {
  return q === 1n ? `${p}` : `${p}/${q}`
}

/** p's smallest prime factor (p ≥ 2). */
function smallestPrime(p: bigint): bigint {
  for (let d = 2n; d * d <= p; d++) if (p % d === 0n) return d
  return p
}

/**
 * top/bottom divided by one prime of their common factor at a time, smallest first: 36/60 →
 * "by 2: 18/30, by 2: 9/15, by 3: 3/5." Each step halves or thirds two numbers the way the times
 * tables do, where the common factor itself (up to 30) would have to be seen at once. The sign rides on
 * the top.
 */
export function reductionWorking(top: bigint, bottom: bigint): string {
  const sign = top < 0n !== bottom < 0n ? '-' : ''
  let [p, q] = [top < 0n ? -top : top, bottom < 0n ? -bottom : bottom]
  const steps: string[] = []
  for (let common = gcd(p, q); common > 1n;) {
    const prime = smallestPrime(common)
    ;[p, q, common] = [p / prime, q / prime, common / prime]
    steps.push(`by ${prime}: ${sign}${written(p, q)}`)
  }
  return `${steps.join(', ')}.`
}

export const fractionSimplification: ReasoningFamily = {
  name: 'fraction-simplification',
  answerFormat: 'a fraction p/q in lowest terms (an integer if q is 1)',
  generate(random, difficulty) {
    const { part, factor, negatives } = LEVELS[difficulty]
    let p: bigint
    let q: bigint
    do {
      p = BigInt(random.int(1, part))
      q = BigInt(random.int(2, part))
    } while (gcd(p, q) !== 1n)
    const k = BigInt(random.int(2, factor))
    const negate = negatives && random.bool()
    const [top, bottom] = [p * k, q * k]
    const shown = negate ? (random.bool() ? `-${top}/${bottom}` : `${top}/-${bottom}`) : `${top}/${bottom}`
    return {
      question: `Simplify the fraction ${shown} to lowest terms.`,
      answer: written(negate ? -p : p, q),
      working: reductionWorking(negate ? -top : top, bottom),
    }
  },
  canonical(answer) {
    // Spaces between digits would join numbers: "1 1/3" (a mixed number) is not 11/3.
    if (/\d\s+\d/.test(answer)) return undefined
    const compact = answer.replace(/\s+/g, '')
    const latex = /^([+-]?)\\[dt]?frac\{([+-]?\d+)\}\{([+-]?\d+)\}$/.exec(compact)
    const plain = /^([+-]?)\(?([+-]?\d+)\/([+-]?\d+)\)?$/.exec(compact)
    const parts = latex ?? plain ?? /^()([+-]?\d+)()$/.exec(compact)
    if (!parts) return undefined
    let p = BigInt(parts[2]!) * (parts[1] === '-' ? -1n : 1n)
    let q = parts[3] ? BigInt(parts[3]) : 1n
    if (q === 0n || gcd(p, q) !== 1n) return undefined
    if (q < 0n) [p, q] = [-p, -q]
    return written(p, q)
  },
}
