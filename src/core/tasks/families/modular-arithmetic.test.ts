import { describe, expect, it } from 'vitest'
import { generateWorkedTask } from '../generate-reasoning-task.ts'
import { remainderWorking } from './modular-arithmetic.ts'

/** Checks every fact of a working and returns the value of its last one. */
function checkFacts(working: string): bigint {
  expect(working).toMatch(/\.$/)
  let last: bigint | undefined
  for (const fact of working.slice(0, -1).split(', ')) {
    const remainder = /^(\d+) mod (\d+) = (\d+)$/.exec(fact)
    const sum = /^(\d+) \+ (\d+) = (\d+)$/.exec(fact)
    const [x, y, z] = (remainder ?? sum ?? []).slice(1).map(BigInt)
    expect(z, `"${fact}" in "${working}"`).toBe(remainder ? x! % y! : x! + y!)
    last = z
  }
  return last!
}

describe('modular arithmetic working', () => {
  it('is a chain of true facts that ends on a mod m', () => {
    for (let a = 0n; a <= 250n; a++)
      for (let m = 2n; m <= 20n; m++) expect(checkFacts(remainderWorking(a, m)), `${a} mod ${m}`).toBe(a % m)
  })

  it('takes the tens first, then the units, then one more remainder when the sum reaches m', () => {
    expect(remainderWorking(137n, 12n)).toBe('130 mod 12 = 10, 10 + 7 = 17, 17 mod 12 = 5.')
    expect(remainderWorking(132n, 7n)).toBe('130 mod 7 = 4, 4 + 2 = 6.')
    expect(remainderWorking(120n, 7n)).toBe('120 mod 7 = 1.')
    expect(remainderWorking(9n, 4n)).toBe('9 mod 4 = 1.')
  })

  it('comes with difficulty 1 tasks only, and ends on their answer', () => {
    for (let seed = 0; seed < 50; seed++) {
      const { task, working } = generateWorkedTask('modular-arithmetic', 1, seed)
      expect(`${checkFacts(working!)}`).toBe(task.answer)
      expect(generateWorkedTask('modular-arithmetic', 2, seed).working).toBeUndefined()
    }
  })
})
