// Seeded WGSL-vs-twin cases of the optimizer kernels (AdamW, gradient-norm clipping): typical steps,
// the lr 1e-6 / tiny-gradient regime, decay, saturation, zero denominators and exponent gaps that take
// the kernels' exact-rounding paths (sticky bits, truncated finer terms).
import { adamInit, adamStep, WEIGHT_EXP, type AdamConfig, type AdamState } from '../ref/adam.ts'
import { clipGradNorm, type ClipResult } from '../ref/clip.ts'
import { randomIntTensor } from '../ref/integer-oracle.ts'
import { I32_MAX } from '../ref/rounding.ts'
import { uniformArray } from '../ref/seeded-random.ts'
import { fromFloat, qtensor, type QTensor } from '../ref/tensor.ts'
import type { ParityCase } from './kernel-set.ts'
import { packTensors, withEdges } from './parity-helpers.ts'

const ADAM: AdamConfig = { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 }

function packStep(out: { w: QTensor; state: AdamState }): QTensor {
  return packTensors(out.w, out.state.m, out.state.r, qtensor([1], 0, Int32Array.of(out.state.step)))
}

export function adamCases(rand: () => number): ParityCase[] {
  const n = 37
  const floats = (exp: number, scale: number) => fromFloat([n], exp, uniformArray(rand, n, -scale, scale))
  const ints = (exp: number, bits: number) => randomIntTensor(rand, [n], exp, bits)
  const nonNegative = (t: QTensor) => qtensor(t.shape, t.exp, t.data.map(Math.abs))
  const weights = withEdges(floats(WEIGHT_EXP, 1), [I32_MAX, -I32_MAX, 0])
  // a state three twin steps in, its gradients' exponents moving
  let trained = { w: weights, state: adamInit([n]) }
  for (const [exp, scale] of [
    [-30, 1],
    [-40, 1e-3],
    [-20, 50],
  ] as const)
    trained = adamStep(trained.w, floats(exp, scale), trained.state, ADAM)
  const cases: ParityCase[] = []
  const push = (name: string, w: QTensor, g: QTensor, state: AdamState, config: AdamConfig) =>
    cases.push({
      name: `adam ${name}`,
      twin: () => packStep(adamStep(w, g, state, config)),
      gpu: async (k) => packStep(await k.adam.step(w, g, state, config)),
    })
  const edges = withEdges(floats(-30, 1))
  push('first step, gradient edges', weights, edges, adamInit([n]), ADAM)
  push('after three steps', trained.w, floats(-30, 1), trained.state, ADAM)
  push('lr 1e-6, gradients 1e-7', trained.w, floats(-50, 1e-7), trained.state, { ...ADAM, lr: 1e-6 })
  push('AdamW λ 0.1, lr 1e-2', trained.w, floats(-24, 2), trained.state, {
    ...ADAM,
    lr: 1e-2,
    weightDecay: 0.1,
  })
  push('gradient ±(2^31 − 1) at 2^-20', weights, withEdges(ints(-20, 31)), trained.state, ADAM)
  const nearMax = fromFloat([n], WEIGHT_EXP, uniformArray(rand, n, 127, 128))
  push('weights saturate at lr 1', nearMax, floats(-20, 1), adamInit([n]), { ...ADAM, lr: 1 })
  push('zero gradient, ε 0: no update', weights, qtensor([n], -30), adamInit([n]), { ...ADAM, eps: 0 })
  push('β1 = β2 = 0', weights, floats(-30, 1), trained.state, { ...ADAM, beta1: 0, beta2: 0 })
  // β1 = ½ with m and g 31-bit at one exponent: m′ = (m + g)/4 at its new exponent, a tie whenever
  // m + g ≡ 2 (mod 4)
  const ties: AdamState = { step: 2, m: withEdges(ints(-30, 31)), r: nonNegative(ints(-30, 31)) }
  push('β1 ½: m′ half-way ties', weights, ints(-30, 31), ties, { ...ADAM, beta1: 0.5, beta2: 0.75 })
  const coarse: AdamState = { step: 5, m: ints(-30, 31), r: nonNegative(ints(-30, 31)) }
  push('gradient 70 places finer than m and √v', weights, ints(-100, 31), coarse, ADAM)
  const fine: AdamState = { step: 5, m: ints(-100, 31), r: nonNegative(ints(-100, 31)) }
  push('gradient 70 places coarser than m and √v', weights, ints(-30, 31), fine, ADAM)
  push('large gradients, λ 0.5, lr 0.3', weights, floats(-10, 3000), coarse, {
    ...ADAM,
    lr: 0.3,
    weightDecay: 0.5,
  })
  return cases
}

function packClip(out: ClipResult): QTensor {
  const norm = Int32Array.from(
    out.norm.toString(16).padStart(32, '0').match(/.{8}/g)!,
    (h) => parseInt(h, 16) | 0,
  )
  return packTensors(...out.grads, qtensor([norm.length], 0, norm))
}

export function clipCases(rand: () => number): ParityCase[] {
  const floats = (shape: number[], exp: number, scale: number) =>
    fromFloat(
      shape,
      exp,
      uniformArray(
        rand,
        shape.reduce((a, b) => a * b, 1),
        -scale,
        scale,
      ),
    )
  const sets: [string, QTensor[], number][] = [
    ['two tensors, exponents 10 apart', [floats([10, 7], -20, 1), floats([5], -30, 0.01)], 0.5],
    ['below the limit: unchanged', [floats([10, 7], -20, 1e-3), floats([5], -30, 1e-4)], 100],
    [
      '±(2^31 − 1) everywhere, exponents 60 apart',
      [
        qtensor([300], -10, new Int32Array(300).fill(I32_MAX)),
        withEdges(floats([9], -70, 1e-12)),
        qtensor([4], 0, Int32Array.of(-I32_MAX, I32_MAX, 0, -1)),
      ],
      1,
    ],
    ['one element', [qtensor([1], -24, Int32Array.of(-3))], 1e-7],
    ['zeros', [qtensor([6], -20), qtensor([2, 3], -40)], 1],
    ['many chunks and a tiny limit', [floats([1031], -24, 4), floats([3, 40], -16, 20)], 1e-6],
  ]
  return sets.map(([name, grads, maxNorm]) => ({
    name: `clip ${name}, max norm ${maxNorm}`,
    twin: () => packClip(clipGradNorm(grads, maxNorm)),
    gpu: async (k) => packClip(await k.clip.clipGradNorm(grads, maxNorm)),
  }))
}
