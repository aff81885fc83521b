import { describe, expect, it } from 'vitest'
import { generateWorkedTask } from '../generate-reasoning-task.ts'
import { DIFFICULTIES } from '../task.ts'
import { fractionSimplification, reductionWorking } from './fraction-simplification.ts'

const { canonical } = fractionSimplification

describe('fraction answers', () => {
  it.each([
    ['2/3', '2/3'],
    [' -2 / 3 ', '-2/3'],
    ['2/-3', '-2/3'],
    ['-(2/3)', '-2/3'],
    ['\\frac{2}{3}', '2/3'],
    ['-\\dfrac{2}{3}', '-2/3'],
    ['5/1', '5'],
    ['5', '5'],
  ])('reads %j as %s', (text, value) => {
    expect(canonical(text)).toBe(value)
  })

  it.each(['4/6', '2/0', '1 1/3', '2 / 3 4', '0.5', 'two thirds', '2//3'])('refuses %j', (text) => {
    expect(canonical(text)).toBeUndefined()
  })
})

describe('fraction working', () => {
  const isPrime = (p: bigint) => {
    for (let d = 2n; d * d <= p; d++) if (p % d === 0n) return false
    return p >= 2n
  }

  it('divides top and bottom by one prime at a time and ends on the answer', () => {
    for (const difficulty of DIFFICULTIES)
      for (let seed = 0; seed < 300; seed++) {
        const { task, working } = generateWorkedTask('fraction-simplification', difficulty, seed)
        const shown = /fraction (-?\d+)\/(-?\d+) to/.exec(task.prompt)!
        let [top, bottom] = [BigInt(shown[1]!), BigInt(shown[2]!)]
        if (bottom < 0n) [top, bottom] = [-top, -bottom]
        expect(working).toMatch(/\.$/)
        for (const step of working!.slice(0, -1).split(', ')) {
          const [, prime, p, q] = /^by (\d+): (-?\d+)(?:\/(\d+))?$/.exec(step)!
          const divisor = BigInt(prime!)
          expect(isPrime(divisor), `${step} in ${working}`).toBe(true)
          expect([BigInt(p!), BigInt(q ?? '1')], `${step} in ${working}`).toEqual([
            top / divisor,
            bottom / divisor,
          ])
          expect([top % divisor, bottom % divisor]).toEqual([0n, 0n])
          ;[top, bottom] = [top / divisor, bottom / divisor]
        }
        expect(canonical(bottom === 1n ? `${top}` : `${top}/${bottom}`), working).toBe(task.answer)
      }
  })

  it('takes the smallest prime first', () => {
    expect(reductionWorking(36n, 60n)).toBe('by 2: 18/30, by 2: 9/15, by 3: 3/5.')
    expect(reductionWorking(-14n, 7n)).toBe('by 7: -2.')
  })
})
