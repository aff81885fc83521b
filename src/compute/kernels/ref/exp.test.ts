import { describe, expect, it } from 'vitest'
import { expFixed } from './exp.ts'
import { seededRandom } from './seeded-random.ts'

const rand = seededRandom(7)
const N = 20000

describe('integer exp vs f64', () => {
  it('exp: |error| ≤ 1e-7 absolute for x ∈ [−88, 0] (Q30 out), ≤ 1e-7 relative for x ∈ [0, 10]', () => {
    let abs = 0
    let rel = 0
    for (let i = 0; i < N; i++) {
      const xn = Math.round((-88 + 88 * rand()) * 2 ** 16)
      abs = Math.max(abs, Math.abs(expFixed(xn, -16, -30) * 2 ** -30 - Math.exp(xn * 2 ** -16)))
      const xp = Math.round(10 * rand() * 2 ** 16)
      const want = Math.exp(xp * 2 ** -16)
      const outExp = Math.floor(Math.log2(want)) - 29
      rel = Math.max(rel, Math.abs(expFixed(xp, -16, outExp) * 2 ** outExp - want) / want)
    }
    expect(abs).toBeLessThan(1e-7)
    expect(rel).toBeLessThan(1e-7)
  })

  it('exp saturates above the output range and flushes to 0 far below', () => {
    expect(expFixed(100 * 2 ** 16, -16, -16)).toBe(2 ** 31 - 1)
    expect(expFixed(-(2 ** 31 - 1), -16, -30)).toBe(0)
    expect(expFixed(0, -16, -30)).toBe(2 ** 30)
  })
})
