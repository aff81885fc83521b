import { describe, expect, it } from 'vitest'
import { rsqrtFixed } from './rsqrt.ts'
import { seededRandom } from './seeded-random.ts'

const rand = seededRandom(7)
const N = 20000

describe('integer rsqrt vs f64', () => {
  it('rsqrt: relative error ≤ 1e-8 for arguments in [2^-40, 2^52]', () => {
    let rel = 0
    for (let i = 0; i < N; i++) {
      const u = 1 + Math.floor(rand() * 2 ** (52 * rand()))
      const want = 1 / Math.sqrt(u * 2 ** -40)
      const outExp = Math.floor(Math.log2(want)) - 29
      rel = Math.max(rel, Math.abs(rsqrtFixed(u, -40, outExp) * 2 ** outExp - want) / want)
    }
    expect(rel).toBeLessThan(1e-8)
    expect(rsqrtFixed(4, 0, -30)).toBe(2 ** 29)
  })
})
