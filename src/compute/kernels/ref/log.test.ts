import { describe, expect, it } from 'vitest'
import { lnFixed } from './log.ts'
import { seededRandom } from './seeded-random.ts'

const rand = seededRandom(7)
const N = 20000

describe('integer ln vs f64', () => {
  it('ln: |error| ≤ 1e-7 absolute for arguments in [2^-20, 2^33]', () => {
    let abs = 0
    for (let i = 0; i < N; i++) {
      const u = 1 + Math.floor(rand() * 2 ** (53 * rand()))
      abs = Math.max(abs, Math.abs(lnFixed(u, -20, -26) * 2 ** -26 - Math.log(u * 2 ** -20)))
    }
    expect(abs).toBeLessThan(1e-7)
    expect(lnFixed(1, 0, -26)).toBe(0)
    expect(() => lnFixed(0, 0, -26)).toThrow(/positive/)
  })
})
