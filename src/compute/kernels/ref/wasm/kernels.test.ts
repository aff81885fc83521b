import { describe, expect, it } from 'vitest'
import { LOG2E_Q30, expFixedTs } from '../exp.ts'
import { randomIntTensor, roundOnce } from '../integer-oracle.ts'
import { matmul } from '../matmul.ts'
import { I32_MAX, mulRne, rne, sat32 } from '../rounding.ts'
import { sigmoidQ30 } from '../silu.ts'
import { seededRandom } from '../seeded-random.ts'
import { softmax, softmaxRowTs } from '../softmax.ts'
import { qtensor } from '../tensor.ts'
import {
  expInDomain,
  expRowWasm,
  expWasm,
  kernelBytes,
  maxAbsWasm,
  mulRowExactWasm,
  mulRowWasm,
  sigmoidRowWasm,
  softmaxBackRowsWasm,
  softmaxRowsWasm,
  wasmKernels,
} from './kernels.ts'

const rand = seededRandom(23)
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1))

describe('wasm kernels', () => {
  it('assemble into a valid module that Node runs (SIMD included)', () => {
    expect(WebAssembly.validate(kernelBytes())).toBe(true)
    expect(wasmKernels).toBe(true)
    // a browser main thread (the Verify view's re-execution) compiles at most 4 KB synchronously
    expect(kernelBytes().length).toBeLessThan(4096)
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
    for (const [m, k, n, wideBits, shift] of [
      [37, 300, 29, 15, undefined], // narrow: one run
      [9, 700, 6, 31, undefined], // wide: runs of ⌊2^53/(max·max)⌋ ≈ 128 products, carried into hi·2^16 + lo
      [4, 1, 5, 31, undefined],
      [12, 40, 8, 15, 20], // a right shift past every sum: all zero
      [12, 40, 8, 12, -3], // a left shift: the sums times 8, most saturated
      [12, 3, 8, 5, -28],
    ] as const) {
      const a = randomIntTensor(rand, [k, m], -20, wideBits) // transposed A: the packing reads strided
      a.data.fill(I32_MAX, 0, Math.min(a.data.length, 200))
      const b = randomIntTensor(rand, [n, k], -10, 15)
      const outExp = shift === undefined ? undefined : -30 + shift
      const c = matmul(a, b, { transA: true, transB: true, outExp })
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

describe('matmul’s rounding of the exact sums (roundSums, two columns a lane pair)', () => {
  const rand = seededRandom(29)
  it('rounds half to even and saturates with an exponent per row of A and per row of B, odd widths included', () => {
    for (const [m, n, k, bits, spread] of [
      [8, 7, 3, 4, 6], // small sums over shifts of 0–12: many exact ties
      [12, 9, 5, 15, 40], // shifts from far right (all 0) to far left (saturated)
      [4, 1, 2, 31, 3],
    ] as const) {
      const scaled = (rows: number) => {
        const t = randomIntTensor(rand, [rows, k], 0, bits)
        return {
          shape: [rows, k] as const,
          data: t.data,
          rowExps: Int32Array.from({ length: rows }, () => int(-spread, spread)),
        }
      }
      const [a, b] = [scaled(m), scaled(n)]
      for (const outExp of [-spread, 0, spread, 2 * spread]) {
        const c = matmul(a, b, { transB: true, outExp })
        for (let i = 0; i < m; i++)
          for (let j = 0; j < n; j++) {
            let sum = 0n
            for (let kk = 0; kk < k; kk++) sum += BigInt(a.data[i * k + kk]!) * BigInt(b.data[j * k + kk]!)
            const want = roundOnce(sum, a.rowExps[i]! + b.rowExps[j]!, c.exp)
            if (c.data[i * n + j] !== want) expect([m, n, outExp, i, j, c.data[i * n + j]]).toBe(want)
          }
      }
    }
  })
})

describe('a weight multiplied again (its panels kept from the second use)', () => {
  const rand = seededRandom(23)
  it('gives the same bits every time, and a kept panel never serves another layout of the same data', () => {
    const w = randomIntTensor(rand, [24, 24], -15, 15)
    const fresh = qtensor(w.shape, w.exp, w.data.slice()) // the same values, never seen before each time
    // the weight as torch.nn.Linear reads it (transposed), as the backward reads it, then transposed again
    for (const transB of [true, false, true])
      for (let use = 0; use < 3; use++) {
        const a = randomIntTensor(rand, [8, 24], -20, 31)
        const again = matmul(a, w, { transB })
        const once = matmul(a, { ...fresh, data: fresh.data.slice() }, { transB })
        expect(Array.from(again.data)).toEqual(Array.from(once.data))
      }
  })
})

describe('wasm row kernels against the TS arithmetic', () => {
  const ints = (n: number, bits: number) => randomIntTensor(rand, [n], 0, bits).data

  it('mulRow (saturated, b broadcast) and mulRowExact', () => {
    const a = ints(1000, 31)
    for (const [b, s] of [
      [ints(1000, 31), 30],
      [ints(1000, 31), 0],
      [ints(10, 20), 7],
      [Int32Array.of(-(2 ** 31 - 1)), 60],
    ] as const) {
      const out = new Int32Array(1000)
      expect(mulRowWasm(a, b, s, out)).toBe(true)
      expect(out).toEqual(a.map((x, i) => sat32(mulRne(x, b[i % b.length]!, s))))
    }
    const b = ints(1000, 31)
    const exact = new Float64Array(1000)
    expect(mulRowExactWasm(a, b, 12, exact)).toBe(true)
    expect(exact).toEqual(Float64Array.from(a, (x, i) => mulRne(x, b[i]!, 12)))
    expect(mulRowWasm(a, b, -1, new Int32Array(1000))).toBe(false) // a left shift: the TS loop
  })

  it('sigmoidRow: sigmoidQ30 of every element', () => {
    const x = ints(5000, 31)
    for (const xExp of [-24, -16, 0]) {
      const out = new Int32Array(5000)
      expect(sigmoidRowWasm(x, xExp, out)).toBe(true)
      expect(out).toEqual(x.map((v) => sigmoidQ30(v, xExp)))
    }
  })

  it('softmaxRows: softmaxRowTs on every row, causal masks, empty rows, scaled log2(e), long rows', () => {
    for (const [rows, n, bits, xExp, scaled] of [
      [97, 97, 28, -16, true], // attention: causal rows, 1/√d folded into log2(e)
      [5, 512, 31, -20, false], // vocabulary rows, the widest logits
      [7, 3, 4, -30, false], // near-ties: many equal exponentials
      [3, 2000, 20, 0, true],
    ] as const) {
      const x = qtensor([rows, n], xExp, ints(rows * n, bits))
      const scaleQ30 = scaled ? int(1, 2 ** 30) : undefined
      const valid = Int32Array.from({ length: rows }, (_, i) => (i === 1 ? 0 : Math.min(n, i + 1 + (i % 3))))
      const want = new Int32Array(rows * n)
      for (let i = 0; i < rows; i++) softmaxRowTs(x, i, want, { scaleQ30, validCols: (r) => valid[r]! })
      const out = new Int32Array(rows * n).fill(7) // masked columns are written, not left
      const log2e = scaleQ30 === undefined ? LOG2E_Q30 : mulRne(LOG2E_Q30, scaleQ30, 30)
      expect(softmaxRowsWasm(x.data, n, valid, xExp, log2e, out)).toBe(true)
      expect(out).toEqual(want)
    }
    // outside its domain (a shift past 60, a row longer than its n) the caller runs the TS definition
    expect(softmaxRowsWasm(new Int32Array(4), 4, Int32Array.of(4), -60, LOG2E_Q30, new Int32Array(4))).toBe(
      false,
    )
    expect(softmaxRowsWasm(new Int32Array(4), 4, Int32Array.of(5), -16, LOG2E_Q30, new Int32Array(4))).toBe(
      false,
    )
  })

  it('softmaxBackRows: the centred rows of softmaxBackward', () => {
    const [rows, n, guard, t] = [13, 97, 14, 17]
    const p = ints(rows * n, 30).map(Math.abs)
    const dp = ints(rows * n, 31)
    const want = new Int32Array(rows * n)
    for (let i = 0; i < rows; i++) {
      let dot = 0
      for (let j = 0; j < n; j++) dot += mulRne(p[i * n + j]!, dp[i * n + j]!, 30 - guard)
      for (let j = 0; j < n; j++) want[i * n + j] = sat32(rne(dp[i * n + j]! * 2 ** guard - dot, t))
    }
    const u = new Int32Array(rows * n)
    expect(softmaxBackRowsWasm(p, dp, n, guard, t, u)).toBe(true)
    expect(u).toEqual(want)
  })

  it('maxAbs, −2^31 included', () => {
    const x = ints(1003, 31)
    x[1001] = -(2 ** 31)
    expect(maxAbsWasm(x)).toBe(2 ** 31)
    x[1001] = 0
    expect(maxAbsWasm(x)).toBe(Math.max(...x.map(Math.abs)))
  })
})
