import { describe, expect, it, vi } from 'vitest'
import { attention, attentionBackward, type AttentionShape } from '../attention.ts'
import { bothPaths, randomIntTensor } from '../integer-oracle.ts'
import { seededRandom } from '../seeded-random.ts'
import type { QTensor } from '../tensor.ts'
import { decodeKernelBytes, decodeKernels } from './decode-kernels.ts'

// The decode kernels can be switched off here, so attention runs its TS loops (what a runtime without
// WebAssembly SIMD runs) on the same inputs; `ran` counts the calls the kernels served.
const kernels = vi.hoisted(() => ({ off: false, ran: 0 }))
vi.mock('./decode-kernels.ts', async (importActual) => {
  const actual = await importActual<typeof import('./decode-kernels.ts')>()
  const gate =
    <A extends unknown[]>(f: (...a: A) => boolean) =>
    (...a: A): boolean => {
      const served = !kernels.off && f(...a)
      if (served) kernels.ran++
      return served
    }
  return { ...actual, dotsWasm: gate(actual.dotsWasm), weightedWasm: gate(actual.weightedWasm) }
})

const rand = seededRandom(41)
const same = (a: QTensor, b: QTensor) => {
  expect(a.exp).toBe(b.exp)
  expect(Buffer.from(a.data.buffer).equals(Buffer.from(b.data.buffer))).toBe(true)
}

describe('decode attention kernels', () => {
  it('assemble into a module that runs beside the first', () => {
    expect(WebAssembly.validate(decodeKernelBytes())).toBe(true)
    expect(decodeKernelBytes().length).toBeLessThan(4096)
    expect(decodeKernels).toBe(true)
  })

  it('a decode step’s attention gives the TS loops’ bits: cache lengths, GQA, wide and saturating values', () => {
    for (const [batch, seqLen, queryLen, heads, kvHeads, headDim, qBits, kBits, vBits, vExp] of [
      [8, 40, 1, 4, 2, 16, 31, 31, 31, -20], // the sampler's shape: wide q, k and v
      [3, 7, 2, 2, 1, 8, 12, 20, 16, 0],
      [2, 5, 3, 4, 4, 6, 31, 5, 31, 40], // v far from q·k: large shifts both ways
      [2, 9, 1, 2, 2, 5, 20, 20, 20, -10], // an odd head size: the kernels decline, the loops run
    ] as const) {
      const shape: AttentionShape = { batch, seqLen, queryLen, heads, kvHeads, headDim }
      const q = randomIntTensor(rand, [batch * queryLen, heads * headDim], -16, qBits)
      const k = randomIntTensor(rand, [batch * seqLen, kvHeads * headDim], -12, kBits)
      const v = randomIntTensor(rand, [batch * seqLen, kvHeads * headDim], vExp, vBits)
      kernels.ran = 0
      const [on, off] = bothPaths(kernels, [q, k, v], (a, b, c) => attention(a!, b!, c!, shape))
      same(on, off)
      expect(kernels.ran).toBe(headDim % 2 === 0 ? 2 : 0)
    }
  })

  it('a backward of fewer positions than a tile (dS·K as query rows) gives the TS loops’ bits', () => {
    const shape: AttentionShape = { batch: 3, seqLen: 3, heads: 4, kvHeads: 2, headDim: 8 }
    const [rows, width] = [3 * 3, 4 * 8]
    const q = randomIntTensor(rand, [rows, width], -16, 31)
    const k = randomIntTensor(rand, [rows, 2 * 8], -16, 31)
    const v = randomIntTensor(rand, [rows, 2 * 8], -16, 31)
    const dOut = randomIntTensor(rand, [rows, width], -30, 31)
    kernels.ran = 0
    const [on, off] = bothPaths(kernels, [q, k, v, dOut], (a, b, c, d) =>
      attentionBackward(a!, b!, c!, d!, shape),
    )
    for (const grad of ['dq', 'dk', 'dv'] as const) same(on[grad], off[grad])
    expect(kernels.ran).toBe(2) // the scores, and dQ = dS·K
  })
})
