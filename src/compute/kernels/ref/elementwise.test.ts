import { describe, expect, it } from 'vitest'
import { add, mul, neg, requantize } from './elementwise.ts'
import { I32_MAX } from './rounding.ts'
import { seededRandom } from './seeded-random.ts'
import { qtensor, toFloat } from './tensor.ts'
import { randomIntTensor, roundOnce } from './integer-oracle.ts'

const rand = seededRandom(13)
const randomTensor = (shape: number[], exp: number, bits: number) => randomIntTensor(rand, shape, exp, bits)

describe('elementwise', () => {
  it('add is the exact sum rounded once, for near and far exponents', () => {
    for (const gap of [0, 3, 21, 22, 40]) {
      const a = randomTensor([64], -20, 31)
      const b = randomTensor([64], -20 - gap, 31)
      for (const outExp of [undefined, -25, -10]) {
        const c = add(a, b, outExp)
        c.data.forEach((v, i) => {
          const exact = (BigInt(a.data[i]!) << BigInt(gap)) + BigInt(b.data[i]!)
          expect(v).toBe(roundOnce(exact, -20 - gap, c.exp))
        })
      }
    }
  })

  it('mul is the exact product rounded once; the default exponent never saturates', () => {
    const a = randomTensor([100], -24, 31)
    const b = randomTensor([100], -16, 31)
    for (const outExp of [undefined, -30]) {
      const c = mul(a, b, outExp)
      c.data.forEach((v, i) => expect(v).toBe(roundOnce(BigInt(a.data[i]!) * BigInt(b.data[i]!), -40, c.exp)))
    }
    const scalar = qtensor([1], -30, Int32Array.of(3 << 28))
    expect(mul(a, scalar).data.length).toBe(100)
    expect(requantize(qtensor([2], 0, Int32Array.of(5, -5)), 1).data).toEqual(Int32Array.of(2, -2))
  })

  it('saturates overflowing sums', () => {
    const big = qtensor([1], 0, Int32Array.of(I32_MAX))
    expect(add(big, big, 0).data[0]).toBe(I32_MAX)
    expect(add(neg(big), neg(big), 0).data[0]).toBe(-I32_MAX)
    const safe = add(big, big) // default exponent: the bound 2^32 needs exponent 2
    expect(toFloat(safe)[0]).toBe(2 ** 32)
  })
})
