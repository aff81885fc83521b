import { describe, expect, it } from 'vitest'
import { I32_MAX, bitLength, ceilLog2, divRne, mulRne, rne, rneBig, rneI32, sat32 } from './rounding.ts'
import { seededRandom } from './seeded-random.ts'

/** Independent bigint oracle: round-half-even of n/d. */
function rneRational(n: bigint, d: bigint): bigint {
  const neg = n < 0n !== d < 0n
  const [a, b] = [n < 0n ? -n : n, d < 0n ? -d : d]
  let q = a / b
  const r2 = 2n * (a - q * b)
  if (r2 > b || (r2 === b && q % 2n === 1n)) q += 1n
  return neg ? -q : q
}

const clampBig = (x: bigint): number =>
  Number(x > BigInt(I32_MAX) ? BigInt(I32_MAX) : x < -BigInt(I32_MAX) ? -BigInt(I32_MAX) : x)

describe('rounding', () => {
  it('rounds halves to even, in both directions', () => {
    expect([5, 7, -5, -7, 6, -6].map((x) => rne(x, 1))).toEqual([2, 4, -2, -4, 3, -3])
    expect(rne(3, -2)).toBe(12)
    expect(rne(2 ** 52 + 1, 60)).toBe(0)
  })

  it('saturates symmetrically', () => {
    expect(sat32(2 ** 40)).toBe(I32_MAX)
    expect(sat32(-(2 ** 40))).toBe(-I32_MAX)
    expect(sat32(-(2 ** 31))).toBe(-I32_MAX)
  })

  it('counts bits across the 2^32 boundary', () => {
    expect([0, 1, 2, 3, 2 ** 32 - 1, 2 ** 32, 2 ** 52].map(bitLength)).toEqual([0, 1, 2, 2, 32, 33, 53])
    expect([1, 2, 3, 4, 5, 1024, 1025].map(ceilLog2)).toEqual([0, 1, 2, 2, 3, 10, 11])
  })

  it('rneI32 rounds an i32 as rne does, ties and negative values included', () => {
    const rand = seededRandom(2)
    const edges = [0, 1, -1, 2, -2, 3, -3, I32_MAX, -I32_MAX, 2 ** 30, -(2 ** 30), 0x5555_5555, -0x2aaa_aaab]
    for (let s = 0; s <= 33; s++) {
      for (const x of edges) expect(rneI32(x, s)).toBe(rne(x, s))
      for (let n = 0; n < 300; n++) {
        const x = Math.floor((rand() * 2 - 1) * 2 ** 31)
        expect(rneI32(x, s)).toBe(rne(x, s))
      }
    }
  })

  it('mulRne is the exact round-half-even of a·b/2^s for i32 operands', () => {
    const rand = seededRandom(1)
    const i32 = () => Math.floor((rand() * 2 - 1) * 2 ** Math.floor(rand() * 32))
    for (let n = 0; n < 20000; n++) {
      const [a, b, s] = [i32(), i32(), Math.floor(rand() * 64)]
      const want = rneRational(BigInt(a) * BigInt(b), 1n << BigInt(s))
      const clamped = want > 2n ** 53n ? 2n ** 53n : want < -(2n ** 53n) ? -(2n ** 53n) : want
      expect(mulRne(a, b, s)).toBe(Number(clamped))
    }
    // ties at the 2^16 limb boundary
    expect(mulRne(3, 2 ** 16, 17)).toBe(2)
    expect(mulRne(5, 2 ** 16, 17)).toBe(2)
    expect(mulRne(-(2 ** 31 - 1), 2 ** 31 - 1, 30)).toBe(
      Number(rneRational(-((2n ** 31n - 1n) ** 2n), 2n ** 30n)),
    )
  })

  it('divRne is the exact round-half-even of n·2^s/d, saturated', () => {
    const rand = seededRandom(2)
    for (let n = 0; n < 20000; n++) {
      const num = Math.floor((rand() * 2 - 1) * 2 ** 31)
      const d = 1 + Math.floor(rand() * 2 ** Math.floor(1 + rand() * 31))
      const s = Math.floor(rand() * 40)
      expect(divRne(num, d, s)).toBe(clampBig(rneRational(BigInt(num) << BigInt(s), BigInt(d))))
    }
    expect(divRne(1, 2, 0)).toBe(0)
    expect(divRne(3, 2, 0)).toBe(2)
    expect(() => divRne(1, 0, 0)).toThrow(/positive/)
  })

  it('rneBig agrees with the number version', () => {
    const rand = seededRandom(3)
    for (let n = 0; n < 2000; n++) {
      const x = Math.floor((rand() * 2 - 1) * 2 ** 50)
      const s = Math.floor(rand() * 40)
      expect(rneBig(BigInt(x), s)).toBe(rne(x, s))
    }
  })
})
