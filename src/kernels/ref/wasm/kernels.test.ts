import { describe, expect, it } from 'vitest'
import { LOG2E_Q30, expFixedTs } from '../exp.ts'
import { randomIntTensor, roundOnce } from '../integer-oracle.ts'
import { matmul } from '../matmul.ts'
import { I32_MAX, mulRne } from '../rounding.ts'
import { seededRandom } from '../seeded-random.ts'
import { softmax } from '../softmax.ts'
import { qtensor } from '../tensor.ts'
import { expInDomain, expRowWasm, expWasm, kernelBytes, wasmKernels } from './kernels.ts'

const rand = seededRandom(23)
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1))

describe('wasm kernels', () => {
  it('assemble into a valid module that Node runs (SIMD included)', () => {
    expect(WebAssembly.validate(kernelBytes())).toBe(true)
    expect(wasmKernels).toBe(true)
  })

  it('exp: the TS definition’s bits on random arguments, scaled log2(e), saturation and flush to 0', () => {
    let checked = 0
    for (let i = 0; i < 100_000; i++) {
      const x = Math.trunc((rand() * 2 - 1) * 2 ** (rand() * 32))
      const xExp = int(-54, 6)
      const outExp = int(-40, 8)
      const log2e = i % 2 === 0 ? LOG2E_Q30 : mulRne(LOG2E_Q30, int(1, 2 ** 30), 30) // c ≤ 1, as attention’s 1/√d
      if (!expInDomain(x, xExp, log2e)) continue
      checked++
      const want = expFixedTs(x, xExp, outExp, log2e)
      if (expWasm(x, xExp, outExp, log2e) !== want) expect([x, xExp, outExp, log2e]).toBe(want)
    }
    expect(checked).toBeGreaterThan(90_000)
    for (const [x, xExp, outExp] of [
      [100 * 2 ** 16, -16, -16],
      [-(2 ** 31 - 1), -16, -30],
      [0, -16, -30],
      [2 ** 32 - 1, 6, -30],
      [-(2 ** 32 - 1), -54, 8],
    ] as const)
      expect(expWasm(x, xExp, outExp, LOG2E_Q30)).toBe(expFixedTs(x, xExp, outExp))
  })

  it('expRow: each entry is expFixed of x − max, and the sum is theirs', () => {
    const x = randomIntTensor(rand, [1, 300], -20, 30)
    const max = Math.max(...x.data)
    const row = expRowWasm(x.data, 7, 250, max, x.exp, -30, LOG2E_Q30)!
    let sum = 0
    for (let j = 0; j < 250; j++) {
      const want = expFixedTs(x.data[7 + j]! - max, x.exp, -30)
      expect(row.e[j]).toBe(want)
      sum += want
    }
    expect(row.sum).toBe(sum)
    // a softmax of that row sums to 1 within the rounding of each entry
    const p = softmax(qtensor([1, 300], x.exp, x.data))
    expect(Math.abs(p.data.reduce((s, v) => s + v, 0) - 2 ** 30)).toBeLessThanOrEqual(300)
  })

  it('matmul through the SIMD tiles: the exact product rounded once, ragged tiles and several carried runs', () => {
    for (const [m, k, n, wideBits] of [
      [37, 300, 29, 15], // narrow: one run
      [9, 700, 6, 31], // wide: runs of ⌊2^53/(max·max)⌋ ≈ 128 products, carried into hi·2^16 + lo
      [4, 1, 5, 31],
    ] as const) {
      const a = randomIntTensor(rand, [k, m], -20, wideBits) // transposed A: the packing reads strided
      a.data.fill(I32_MAX, 0, Math.min(a.data.length, 200))
      const b = randomIntTensor(rand, [n, k], -10, 15)
      const c = matmul(a, b, { transA: true, transB: true })
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          let sum = 0n
          for (let kk = 0; kk < k; kk++) sum += BigInt(a.data[kk * m + i]!) * BigInt(b.data[j * k + kk]!)
          if (c.data[i * n + j] !== roundOnce(sum, -30, c.exp))
            expect([m, k, n, i, j, c.data[i * n + j]]).toBe(roundOnce(sum, -30, c.exp))
        }
    }
  })
})
