import { describe, expect, it, vi } from 'vitest'
import { add } from '../elementwise.ts'
import { bothPaths, randomIntTensor } from '../integer-oracle.ts'
import { tokenLogProbBackward } from '../logprob.ts'
import { narrowRows } from '../narrow.ts'
import { rmsNorm, rmsNormBackward } from '../rmsnorm.ts'
import { rope } from '../rope.ts'
import { ropeTable } from '../rope-table.ts'
import { seededRandom } from '../seeded-random.ts'
import { swigluBackward } from '../silu.ts'

// Every kernel of the second module can be switched off here, so each op runs its TS path (what a
// runtime without WebAssembly SIMD runs) on the same inputs as its kernel path.
const kernels = vi.hoisted(() => ({ off: false }))
vi.mock('./elementwise-kernels.ts', async (importActual) => {
  const actual = await importActual<typeof import('./elementwise-kernels.ts')>()
  const gate =
    <A extends unknown[]>(f: (...a: A) => boolean) =>
    (...a: A): boolean =>
      !kernels.off && f(...a)
  return {
    ...actual,
    addRowWasm: gate(actual.addRowWasm),
    ropeRowsWasm: gate(actual.ropeRowsWasm),
    scaleRowsWasm: gate(actual.scaleRowsWasm),
    centerRowsWasm: gate(actual.centerRowsWasm),
    swigluBackWasm: gate(actual.swigluBackWasm),
    narrowRowsWasm: gate(actual.narrowRowsWasm),
  }
})

const rand = seededRandom(37)
const tensor = (shape: number[], exp: number, bits: number) => randomIntTensor(rand, shape, exp, bits)
describe('the TS paths give the kernels’ bits', () => {
  it('add, at finer, coarser and left-shifted output exponents', () => {
    for (const [ea, eb, out] of [
      [-20, -20, undefined],
      [-20, -34, undefined],
      [-12, -40, -30],
      [-20, -18, -25],
      [-24, -24, -16],
    ] as const) {
      const [on, off] = bothPaths(kernels, [tensor([33, 17], ea, 31), tensor([33, 17], eb, 31)], (a, b) =>
        add(a!, b!, out),
      )
      expect(on).toEqual(off)
    }
  })

  it('rope, both directions', () => {
    const table = ropeTable(16, 64, 10000)
    const positions = Int32Array.from({ length: 12 }, (_, i) => (i * 7) % 64)
    for (const inverse of [false, true]) {
      const [on, off] = bothPaths(kernels, [tensor([12, 64], -20, 31)], (x) =>
        rope(x!, positions, table, inverse),
      )
      expect(on).toEqual(off)
    }
  })

  it('RMSNorm forward and backward', () => {
    const inputs = [tensor([40, 64], -20, 28), tensor([64], -24, 25), tensor([40, 64], -30, 30)]
    const [on, off] = bothPaths(kernels, inputs, (x, w, dy) => [
      rmsNorm(x!, w!, 1e-6, -20),
      rmsNormBackward(x!, w!, 1e-6, dy!),
    ])
    expect(on).toEqual(off)
  })

  it('SwiGLU backward', () => {
    const inputs = [tensor([24, 96], -22, 28), tensor([24, 96], -20, 30), tensor([24, 96], -30, 31)]
    const [on, off] = bothPaths(kernels, inputs, (gate, up, dy) => swigluBackward(gate!, up!, dy!))
    expect(on).toEqual(off)
  })

  it('narrowRows', () => {
    const [on, off] = bothPaths(kernels, [tensor([50, 48], -18, 31)], (x) => narrowRows(x!))
    expect(on).toEqual(off)
  })

  it('the vocabulary softmax backward, rows without a gradient included', () => {
    const targets = Int32Array.from({ length: 30 }, (_, i) => (i * 37) % 512)
    const dLogProbs = tensor([30], -30, 20)
    for (let i = 0; i < 30; i += 3) dLogProbs.data[i] = 0
    const [on, off] = bothPaths(kernels, [tensor([30, 512], -16, 24), dLogProbs], (logits, g) =>
      tokenLogProbBackward(logits!, targets, g!),
    )
    expect(on).toEqual(off)
  })
})
