import { describe, expect, it, vi } from 'vitest'
import { mul } from './elementwise.ts'
import { randomIntTensor } from './integer-oracle.ts'
import { narrow16 } from './narrow.ts'
import { rsqrtFixed } from './rsqrt.ts'
import { scoreGrad } from './score-grad.ts'
import { seededRandom } from './seeded-random.ts'
import { softmax, softmaxBackward } from './softmax.ts'
import { qtensor, type QTensor } from './tensor.ts'

const definition = (p: QTensor, dp: QTensor, scale: QTensor) => narrow16(mul(softmaxBackward(p, dp), scale))

/** Causal attention probabilities of random scores, and a dP of `bits`-bit entries at dpExp. */
function chain(seed: number, rows: number, n: number, bits: number, dpExp: number) {
  const rand = seededRandom(seed)
  const scores = randomIntTensor(rand, [rows, n], -16, 20)
  const p = softmax(scores, { scaleQ30: rsqrtFixed(16, 0, -30), validCols: (r) => (r % n) + 1 })
  return { p, dp: randomIntTensor(rand, [rows, n], dpExp, bits) }
}

const cases = [
  [96, 24, 31, -40], // wide dP: every pass rounds
  [64, 17, 12, -20], // odd rows
  [40, 8, 0, 0], // dP = 0: the scalar product's shift leaves mulRow's domain, the composition runs
] as const

describe('scoreGrad: dS = narrow16(softmaxBackward(P, dP)·c) in one chain', () => {
  it('gives the composition’s bits and exponent, with the 1/√d scale and with others', () => {
    for (const [i, [rows, n, bits, dpExp]] of cases.entries())
      for (const c of [rsqrtFixed(16, 0, -30), 2 ** 30 - 1, 3]) {
        const { p, dp } = chain(i + 1, rows, n, bits, dpExp)
        const scale = qtensor([1], -30, Int32Array.of(c))
        const fast = scoreGrad(p, dp, scale)
        const want = definition(p, dp, scale)
        expect(fast.exp).toBe(want.exp)
        expect(fast.shape).toEqual(want.shape)
        expect(Buffer.from(fast.data.buffer).equals(Buffer.from(want.data.buffer))).toBe(true)
      }
  })

  it('falls back to the composition where a pass leaves the kernels’ domain (rows past 2^21 guard bits)', () => {
    // a row of 2^22 columns leaves no guard bits: softmaxBackward's TS loop runs, and so does this
    const { p, dp } = chain(9, 1, 2 ** 22, 8, -10)
    const scale = qtensor([1], -30, Int32Array.of(rsqrtFixed(16, 0, -30)))
    expect(Array.from(scoreGrad(p, dp, scale).data.subarray(0, 64))).toEqual(
      Array.from(definition(p, dp, scale).data.subarray(0, 64)),
    )
  })
})

describe('scoreGrad without the wasm kernels', () => {
  it('is the composition', async () => {
    vi.resetModules()
    vi.doMock('./wasm/kernels.ts', async (original) => ({
      ...(await original<typeof import('./wasm/kernels.ts')>()),
      wasmArena: () => undefined,
    }))
    const { scoreGrad: withoutKernels } = await import('./score-grad.ts')
    const { p, dp } = chain(4, 48, 24, 31, -40)
    const scale = qtensor([1], -30, Int32Array.of(rsqrtFixed(16, 0, -30)))
    expect(Array.from(withoutKernels(p, dp, scale).data)).toEqual(Array.from(definition(p, dp, scale).data))
    vi.doUnmock('./wasm/kernels.ts')
  })
})
