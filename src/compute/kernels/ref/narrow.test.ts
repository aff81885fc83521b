import { describe, expect, it } from 'vitest'
import { fitShift, narrow16 } from './narrow.ts'
import { I16_MAX, I32_MAX, rne } from './rounding.ts'
import { seededRandom } from './seeded-random.ts'
import { qtensor, toFloat } from './tensor.ts'
import { randomIntTensor } from './integer-oracle.ts'

const rand = seededRandom(12)
const randomTensor = (shape: number[], exp: number, bits: number) => randomIntTensor(rand, shape, exp, bits)

describe('narrow16', () => {
  it('is exact for values that fit and rounds once with a carry check otherwise', () => {
    const small = randomTensor([50], -10, 15)
    expect(narrow16(small)).toEqual(small)
    expect(fitShift(65535, I16_MAX)).toBe(2) // 65535/2 rounds to 32768, which does not fit
    const big = randomTensor([200], -20, 31)
    const n = narrow16(big)
    expect(Math.max(...n.data.map(Math.abs))).toBeLessThanOrEqual(I16_MAX)
    const f = toFloat(big)
    toFloat(n).forEach((v, i) => expect(Math.abs(v - f[i]!)).toBeLessThanOrEqual(2 ** (n.exp - 1)))
  })

  it('rounds every element half to even at the shift its maximum needs: ties both ways, negatives, ±(2^31 − 1)', () => {
    for (const s of [1, 3, 16]) {
      // ties (a remainder of exactly half) with even and odd quotients, of both signs, and the extremes
      const half = 2 ** (s - 1)
      const values = [I32_MAX, -I32_MAX, 5 * half, 7 * half, -5 * half, -7 * half, half, -half, 0, 1, -1]
      const scale = 2 ** (15 + s) - 2 ** s // keeps the maximum where it needs shift s
      const t = qtensor([values.length + 1], -8, Int32Array.from([...values.map((v) => v % scale), scale]))
      const n = narrow16(t)
      const shift = n.exp - t.exp
      expect(Array.from(n.data)).toEqual(Array.from(t.data, (v) => rne(v, shift)))
    }
  })
})
