import { describe, expect, it } from 'vitest'
import { neg } from './elementwise.ts'
import { MAX_K, matmul } from './matmul.ts'
import { narrowRows } from './narrow.ts'
import { I16_MAX, I32_MAX } from './rounding.ts'
import { seededRandom } from './seeded-random.ts'
import { qtensor, toFloat } from './tensor.ts'
import { randomIntTensor, roundOnce } from './integer-oracle.ts'

const rand = seededRandom(11)
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1))
const randomTensor = (shape: number[], exp: number, bits: number) => randomIntTensor(rand, shape, exp, bits)

describe('matmul', () => {
  it('equals the exact product rounded once, for every transpose combination', () => {
    for (let trial = 0; trial < 40; trial++) {
      const [m, k, n] = [int(1, 12), int(1, 40), int(1, 12)]
      const [transA, transB] = [rand() < 0.5, rand() < 0.5]
      const a = randomTensor(transA ? [k, m] : [m, k], int(-20, -5), 15)
      const b = randomTensor(transB ? [n, k] : [k, n], int(-20, -5), 15)
      const outExp = rand() < 0.5 ? undefined : a.exp + b.exp + int(0, 12)
      const c = matmul(a, b, { transA, transB, outExp })
      const ea = (i: number, kk: number) => BigInt(a.data[transA ? kk * m + i : i * k + kk]!)
      const eb = (kk: number, j: number) => BigInt(b.data[transB ? j * k + kk : kk * n + j]!)
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          let sum = 0n
          for (let kk = 0; kk < k; kk++) sum += ea(i, kk) * eb(kk, j)
          expect(c.data[i * n + j]).toBe(roundOnce(sum, a.exp + b.exp, c.exp))
        }
    }
  })

  it('is within half an output unit of f64 and never saturates at the default exponent', () => {
    const k = 64
    const a = qtensor([2, k], -15, new Int32Array(2 * k).fill(I16_MAX))
    const b = qtensor([k, 2], -15, new Int32Array(2 * k).fill(-I16_MAX))
    const c = matmul(a, b)
    const want = -k * I16_MAX * I16_MAX * 2 ** -30
    expect(Math.abs(toFloat(c)[0]! - want)).toBeLessThanOrEqual(2 ** (c.exp - 1))
    expect(Math.abs(c.data[0]!)).toBeLessThan(I32_MAX)
  })

  it('saturates when the caller asks for a too-fine exponent', () => {
    const a = qtensor([1, 4], 0, Int32Array.of(I16_MAX, I16_MAX, I16_MAX, I16_MAX))
    expect(matmul(a, a, { transB: true, outExp: 0 }).data[0]).toBe(I32_MAX)
    expect(matmul(neg(a), a, { transB: true, outExp: 0 }).data[0]).toBe(-I32_MAX)
  })

  it('multiplies a wide i32 operand exactly through int16 limbs', () => {
    for (let trial = 0; trial < 20; trial++) {
      const [m, k, n] = [int(1, 6), int(1, 30), int(1, 6)]
      const a = randomTensor([m, k], -20, 31)
      const b = randomTensor([n, k], -10, 15)
      const c = matmul(a, b, { transB: true, outExp: rand() < 0.5 ? undefined : -20 })
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          let sum = 0n
          for (let kk = 0; kk < k; kk++) sum += BigInt(a.data[i * k + kk]!) * BigInt(b.data[j * k + kk]!)
          expect(c.data[i * n + j]).toBe(roundOnce(sum, -30, c.exp))
        }
    }
  })

  it('sums through limbs where k·max|A|·max|B| passes 2^53, and directly below it, with the same bits', () => {
    // the direct sum is exact only up to 2^53; past it the product needs the limb form
    for (const [k, bits] of [
      [256, 31], // 256·2^31·2^15 = 2^54: limbs
      [64, 31], // 2^52: direct
    ] as const) {
      for (const m of [1, 5]) {
        const a = randomTensor([m, k], -20, bits)
        a.data.fill(I32_MAX, 0, Math.min(k, 130)) // the first row near the extreme: sums near the bound
        const b = randomTensor([3, k], -10, 15)
        b.data.fill(I16_MAX, 0, k)
        const c = matmul(a, b, { transB: true }) // the default exponent: no sum saturates
        expect(Math.abs(c.data[0]!)).toBeLessThan(I32_MAX)
        for (let i = 0; i < m; i++)
          for (let j = 0; j < 3; j++) {
            let sum = 0n
            for (let kk = 0; kk < k; kk++) sum += BigInt(a.data[i * k + kk]!) * BigInt(b.data[j * k + kk]!)
            expect(c.data[i * 3 + j]).toBe(roundOnce(sum, -30, c.exp))
          }
      }
    }
  })

  it('keeps rows independent with per-row exponents', () => {
    const a = randomTensor([3, 8], -20, 31)
    const b = randomTensor([2, 8], -20, 31)
    const c1 = matmul(narrowRows(a), narrowRows(b), { transB: true, outExp: -16 })
    a.data[2 * 8] = 2 ** 31 - 1 // a huge value in a later row
    const c2 = matmul(narrowRows(a), narrowRows(b), { transB: true, outExp: -16 })
    expect(Array.from(c2.data.subarray(0, 4))).toEqual(Array.from(c1.data.subarray(0, 4)))
    expect(() => matmul(narrowRows(a), b, { transA: true })).toThrow(/per-row/)
  })

  it('rejects two wide operands, mismatched shapes and K beyond the exact bound', () => {
    const wide = qtensor([1, 2], 0, Int32Array.of(40000, 1))
    expect(() => matmul(wide, qtensor([2, 1], 0, Int32Array.of(40000, 1)))).toThrow(/wide/)
    expect(() => matmul(qtensor([1, 2], 0), qtensor([3, 1], 0))).toThrow(/inner/)
    expect(MAX_K).toBe(2 ** 22)
  })
})
