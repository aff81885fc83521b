import { describe, expect, it } from 'vitest'
import { fitShift, narrow16 } from './narrow.ts'
import { I16_MAX } from './rounding.ts'
import { seededRandom } from './seeded-random.ts'
import { toFloat } from './tensor.ts'
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
})
