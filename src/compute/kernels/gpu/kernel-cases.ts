// The seeded cases every WGSL-vs-twin comparison of the 1-D kernels runs (the Chromium page;
// Node computes the twin's side from the same cases). Each case is one op on fixed inputs, run by the
// twin and by a kernel host; cases cover each op's documented input range and its edges (saturation,
// zeros, ±(2^31 − 1), ties, extreme exponents).
/// <reference types="@webgpu/types" />
import { crossEntropy, crossEntropyBackward } from '../ref/cross-entropy.ts'
import { add, mul, neg, requantize } from '../ref/elementwise.ts'
import { embeddingGather, embeddingScatterAdd } from '../ref/embedding.ts'
import { LOG2E_Q30, expFixed } from '../ref/exp.ts'
import { randomIntTensor } from '../ref/integer-oracle.ts'
import { lnFixed } from '../ref/log.ts'
import { tokenLogProbBackward, tokenLogProbs } from '../ref/logprob.ts'
import { narrow16 } from '../ref/narrow.ts'
import { rmsNorm, rmsNormBackward, type RmsNormGrads } from '../ref/rmsnorm.ts'
import { ropeTable } from '../ref/rope-table.ts'
import { rope } from '../ref/rope.ts'
import { I32_MAX, divRne, mulRne } from '../ref/rounding.ts'
import { rsqrtFixed } from '../ref/rsqrt.ts'
import { seededRandom, uniformArray } from '../ref/seeded-random.ts'
import { sigmoidQ30, silu, swiglu, swigluBackward, type SwigluGrads } from '../ref/silu.ts'
import { logSoftmax, softmax } from '../ref/softmax.ts'
import { fromFloat, qtensor, type QTensor } from '../ref/tensor.ts'
import { attentionCases, softmaxBackwardCases } from './attention-cases.ts'
import type { ElementwiseKernel } from './elementwise-kernel.ts'
import { grpoCases } from './grpo-cases.ts'
import { bitsOf, type MatmulBits } from './matmul-cases.ts'
import { adamCases, clipCases } from './optimizer-cases.ts'
import { packTensors, withEdges } from './parity-helpers.ts'
import { Probe } from './primitives-probe.ts'
import { samplingCases } from './sampling-cases.ts'
import type { ParityCase, ParitySuites } from './kernel-set.ts'

/** A result as plain numbers, comparable across runtimes. */
export type Bits = MatmulBits

function elementwiseCases(rand: () => number): ParityCase[] {
  const ints = (shape: number[], exp: number, bits: number) => randomIntTensor(rand, shape, exp, bits)
  const cases: ParityCase[] = []
  const push = (name: string, twin: () => QTensor, gpu: (e: ElementwiseKernel) => Promise<QTensor>) =>
    cases.push({ name, twin, gpu: (k) => gpu(k.elementwise) })
  for (const gap of [0, 3, 21, 22, 40, 70]) {
    for (const outExp of [undefined, -25, -10]) {
      const a = withEdges(ints([37], -20, 31))
      const b = withEdges(ints([37], -20 - gap, 31), [I32_MAX, I32_MAX, -I32_MAX])
      push(
        `add gap ${gap} outExp ${outExp}`,
        () => add(a, b, outExp),
        (e) => e.add(a, b, outExp),
      )
      push(
        `add gap −${gap} outExp ${outExp}`,
        () => add(b, a, outExp),
        (e) => e.add(b, a, outExp),
      )
    }
  }
  // ties: odd sums one bit finer than the output, in both signs
  const odd = qtensor([8], -1, Int32Array.of(1, 3, 5, 7, -1, -3, -5, -7))
  const zeros = qtensor([8], -1)
  push(
    'add ties to even',
    () => add(odd, zeros, 0),
    (e) => e.add(odd, zeros, 0),
  )
  const [sa, sb] = [withEdges(ints([9], 0, 31)), withEdges(ints([9], 0, 31))]
  push(
    'add saturates',
    () => add(sa, sb, 0),
    (e) => e.add(sa, sb, 0),
  )
  const ma = withEdges(ints([41], -24, 31))
  const mb = withEdges(ints([41], -16, 31), [I32_MAX, I32_MAX, 5, -I32_MAX])
  const scalar = qtensor([1], -30, Int32Array.of(3 << 28))
  const negScalar = qtensor([1], -3, Int32Array.of(-I32_MAX))
  for (const outExp of [undefined, -30, -50, -70, 20]) {
    push(
      `mul outExp ${outExp}`,
      () => mul(ma, mb, outExp),
      (e) => e.mul(ma, mb, outExp),
    )
  }
  push(
    'mul by a scalar',
    () => mul(ma, scalar),
    (e) => e.mul(ma, scalar),
  )
  push(
    'mul by −(2^31−1), saturating',
    () => mul(ma, negScalar, -20),
    (e) => e.mul(ma, negScalar, -20),
  )
  push(
    'mul ties',
    () => mul(odd, qtensor([1], 0, Int32Array.of(1)), 0),
    (e) => e.mul(odd, qtensor([1], 0, Int32Array.of(1)), 0),
  )
  const r = withEdges(ints([33], -20, 31))
  for (const outExp of [-20, -19, -12, 0, 11, 12, 40, 50, -21, -25, -60]) {
    push(
      `requantize to ${outExp}`,
      () => requantize(r, outExp),
      (e) => e.requantize(r, outExp),
    )
  }
  push(
    'requantize ties',
    () => requantize(odd, 0),
    (e) => e.requantize(odd, 0),
  )
  const carry = qtensor([3], -7, Int32Array.of(65535, -65535, 1)) // rounds up to 2^15: one more bit
  for (const [name, t] of [
    ['wide', withEdges(ints([29], -20, 31))],
    ['fits', ints([29], -5, 15)],
    ['carry', carry],
    ['zeros', qtensor([4], 3)],
  ] as const)
    push(
      `narrow16 ${name}`,
      () => narrow16(t),
      (e) => e.narrow16(t),
    )
  push(
    'neg',
    () => neg(r),
    (e) => e.neg(r),
  )
  return cases
}

function embeddingCases(rand: () => number): ParityCase[] {
  const ints = (shape: number[], exp: number, bits: number) => randomIntTensor(rand, shape, exp, bits)
  const idsOf = (n: number, vocab: number) => Int32Array.from({ length: n }, () => Math.floor(rand() * vocab))
  const vocab = 50
  const table = withEdges(ints([vocab, 24], -24, 31))
  const ids = idsOf(40, vocab)
  ids.set([0, vocab - 1, 0, 0], 0)
  const repeated = new Int32Array(64).fill(7) // 64 rows of ±(2^31 − 1) into one: the bound exponent
  const wide = withEdges(ints([40, 24], -20, 31))
  const allMax = qtensor([64, 24], -20, new Int32Array(64 * 24).fill(I32_MAX))
  allMax.data.fill(-I32_MAX, 0, 24 * 3)
  const small = ints([40, 24], -30, 10)
  const none = new Int32Array(0)
  const cases: ParityCase[] = [
    { name: 'gather', twin: () => embeddingGather(table, ids), gpu: (k) => k.embedding.gather(table, ids) },
    {
      name: 'gather nothing',
      twin: () => embeddingGather(table, none),
      gpu: (k) => k.embedding.gather(table, none),
    },
  ]
  for (const [name, d, i] of [
    ['wide', wide, ids],
    ['small (exact, no rounding)', small, ids],
    ['±(2^31 − 1) into one row', allMax, repeated],
    ['nothing', qtensor([0, 24], -20), none],
  ] as const)
    cases.push({
      name: `scatter-add ${name}`,
      twin: () => embeddingScatterAdd(d, i, vocab),
      gpu: (k) => k.embedding.scatterAdd(d, i, vocab),
    })
  return cases
}

/** The twin's scalar function applied to every element. */
function mapTensor(x: QTensor, exp: number, f: (v: number) => number): QTensor {
  return qtensor(x.shape, exp, x.data.map(f))
}

function nonlinearCases(rand: () => number): ParityCase[] {
  const uniform = (n: number, exp: number, lo: number, hi: number) =>
    fromFloat([n], exp, uniformArray(rand, n, lo, hi))
  const cases: ParityCase[] = []
  const expCase = (name: string, x: QTensor, outExp: number, log2e = LOG2E_Q30) =>
    cases.push({
      name: `exp ${name} → 2^${outExp}`,
      twin: () => mapTensor(x, outExp, (v) => expFixed(v, x.exp, outExp, log2e)),
      gpu: (k) => k.nonlinear.exp(x, outExp, log2e),
    })
  const negatives = withEdges(uniform(61, -24, -128, 0), [0, -I32_MAX, -1, -(2 ** 24), -(2 ** 23)])
  for (const outExp of [-30, -40, -16, 0]) expCase('x ∈ [−128, 0] at 2^-24', negatives, outExp)
  expCase('x ∈ [−2^15, 0] at 2^-16', withEdges(uniform(40, -16, -32768, 0), [0, -I32_MAX]), -30)
  const positives = withEdges(uniform(50, -24, 0, 10), [0, 10 * 2 ** 24, 2 ** 24, 1])
  for (const outExp of [-16, -20, -30, 4]) expCase('x ∈ [0, 10] at 2^-24', positives, outExp) // −20, −30 saturate
  expCase('scaled by 1/8 (softmax’s folded constant)', negatives, -30, mulRne(LOG2E_Q30, 2 ** 27, 30))
  const sig = withEdges(uniform(64, -20, -64, 64))
  cases.push({
    name: 'sigmoid x ∈ [−64, 64]',
    twin: () => mapTensor(sig, -30, (v) => sigmoidQ30(v, sig.exp)),
    gpu: (k) => k.nonlinear.sigmoid(sig),
  })
  for (const exp of [-20, -16, -8]) {
    const x = withEdges(uniform(64, exp, -12, 12))
    cases.push({
      name: `silu x ∈ [−12, 12] at 2^${exp}`,
      twin: () => silu(x),
      gpu: (k) => k.nonlinear.silu(x),
    })
  }
  const gate = withEdges(uniform(48, -20, -12, 12))
  const up = withEdges(uniform(48, -20, -12, 12), [I32_MAX, -I32_MAX, 0, I32_MAX])
  for (const outExp of [-20, -16, -30, -12])
    cases.push({
      name: `swiglu → 2^${outExp}`,
      twin: () => swiglu(gate, up, outExp),
      gpu: (k) => k.nonlinear.swiglu(gate, up, outExp),
    })
  return cases
}

function softmaxCases(rand: () => number): ParityCase[] {
  const logits = (r: number, n: number, exp: number, lo: number, hi: number) =>
    fromFloat([r, n], exp, uniformArray(rand, r * n, lo, hi))
  const x = logits(9, 50, -16, -30, 30)
  x.data.fill(0, 50, 100) // a constant row: ties everywhere
  x.data.set([30 * 2 ** 16, -30 * 2 ** 16], 100)
  const wide = logits(5, 17, -16, -30000, 30000) // differences near 2^32 units: exps underflow to 0
  wide.data.set([I32_MAX, -I32_MAX, I32_MAX], 0)
  const fine = logits(4, 33, -24, -30, 30)
  const coarse = logits(3, 20, -4, -30, 30)
  const causal = { scaleQ30: 2 ** 27, validCols: (row: number) => Math.min(50, row + 1) }
  const cases: ParityCase[] = []
  const both = (name: string, t: QTensor, options = {}, outExps = [-20, -24]) => {
    cases.push({
      name: `softmax ${name}`,
      twin: () => softmax(t, options),
      gpu: (k) => k.softmax.softmax(t, options),
    })
    for (const outExp of outExps)
      cases.push({
        name: `log-softmax ${name} → 2^${outExp}`,
        twin: () => logSoftmax(t, outExp, options),
        gpu: (k) => k.softmax.logSoftmax(t, outExp, options),
      })
  }
  both('logits ∈ [−30, 30] at 2^-16', x, {}, [-20, -24, -30, -8])
  both('extreme logits', wide)
  both('logits at 2^-24', fine)
  both('logits at 2^-4', coarse)
  both('scaled by 1/8, causal', x, causal)
  const targets = Int32Array.from({ length: 9 }, () => Math.floor(rand() * 50))
  targets.set([0, 49], 0)
  for (const outExp of [-24, -16])
    cases.push({
      name: `token log-probs → 2^${outExp}`,
      twin: () => tokenLogProbs(x, targets, outExp),
      gpu: (k) => k.softmax.tokenLogProbs(x, targets, outExp),
    })
  const dlp = withEdges(fromFloat([9], -20, uniformArray(rand, 9, -3, 3)), [I32_MAX, -I32_MAX, 0])
  cases.push({
    name: 'token log-prob backward',
    twin: () => tokenLogProbBackward(x, targets, dlp),
    gpu: (k) => k.softmax.tokenLogProbBackward(x, targets, dlp),
  })
  const big = logits(7, 300, -16, -30, 30)
  const bigTargets = Int32Array.from({ length: 7 }, () => Math.floor(rand() * 300))
  for (const [name, t, ids] of [
    ['[9, 50]', x, targets],
    ['[7, 300]', big, bigTargets],
    ['extreme logits', wide, Int32Array.of(1, 2, 0, 16, 3)],
  ] as const) {
    cases.push({
      name: `cross-entropy ${name}`,
      twin: () => crossEntropy(t, ids),
      gpu: (k) => k.softmax.crossEntropy(t, ids),
    })
    cases.push({
      name: `cross-entropy backward ${name}`,
      twin: () => crossEntropyBackward(t, ids),
      gpu: (k) => k.softmax.crossEntropyBackward(t, ids),
    })
  }
  return cases
}

function rmsNormCases(rand: () => number): ParityCase[] {
  const cases: ParityCase[] = []
  const add = (name: string, x: QTensor, w: QTensor, eps: number, outExp: number) =>
    cases.push({
      name: `rmsnorm ${name}, ε ${eps} → 2^${outExp}`,
      twin: () => rmsNorm(x, w, eps, outExp),
      gpu: (k) => k.rmsnorm.forward(x, w, eps, outExp),
    })
  const rows = (r: number, d: number, exp: number, lo: number, hi: number) =>
    fromFloat([r, d], exp, uniformArray(rand, r * d, lo, hi))
  const weight = (d: number) => fromFloat([d], -24, uniformArray(rand, d, 0.5, 1.5))
  const x = rows(6, 64, -20, -4, 4)
  x.data.fill(0, 64, 128) // a zero row: ε alone
  x.data.fill(3, 128, 192) // tiny constant row: exact mantissas
  x.data.set([I32_MAX, -I32_MAX, I32_MAX], 192) // huge entries narrow with a shift
  const w = weight(64)
  for (const [eps, outExp] of [
    [1e-6, -20],
    [1e-5, -16],
    [1e-6, -28], // saturates
  ] as const)
    add('[6, 64] at 2^-20', x, w, eps, outExp)
  add('[5, 33] at 2^-20', rows(5, 33, -20, -2000, 2000), weight(33), 1e-6, -20)
  add('[3, 1]', rows(3, 1, -20, -1, 1), weight(1), 1e-6, -20)
  add('[2, 1024] at 2^-16', rows(2, 1024, -16, -100, 100), weight(1024), 1e-6, -20)
  add('[4, 48] at 2^-8', rows(4, 48, -8, -1000, 1000), weight(48), 1e-3, -20)
  return cases
}

/**
 * RMSNorm backward (dx and dWeight packed into one comparison): the forward's rows (a zero row, a tiny
 * constant row, ±(2^31 − 1) entries), D = 1, wide rows, many rows per column sum, dy with edges, zero
 * dy, dy proportional to x (w cancels to rounding noise), tiny and huge dy exponents and weights at
 * ±(2^31 − 1) (the exponents grow to hold them: outputs never saturate, by the twin's design).
 */
function rmsNormBackwardCases(rand: () => number): ParityCase[] {
  const cases: ParityCase[] = []
  const pack = (g: RmsNormGrads) => packTensors(g.dx, g.dWeight)
  const add = (name: string, x: QTensor, w: QTensor, eps: number, dy: QTensor) =>
    cases.push({
      name: `rmsnorm backward ${name}, ε ${eps}`,
      twin: () => pack(rmsNormBackward(x, w, eps, dy)),
      gpu: async (k) => pack(await k.rmsnorm.backward(x, w, eps, dy)),
    })
  const rows = (r: number, d: number, exp: number, lo: number, hi: number) =>
    fromFloat([r, d], exp, uniformArray(rand, r * d, lo, hi))
  const weight = (d: number) => fromFloat([d], -24, uniformArray(rand, d, 0.5, 1.5))
  /** dy at 2^exp, its values up to 2^20 units. */
  const grad = (r: number, d: number, exp = -20) => rows(r, d, exp, -(2 ** (exp + 20)), 2 ** (exp + 20))
  const dyEdges = [I32_MAX, -I32_MAX, 0, I32_MAX, 1, -1]
  const x = rows(6, 64, -20, -4, 4)
  x.data.fill(0, 64, 128) // a zero row: ε alone
  x.data.fill(3, 128, 192) // tiny constant row: exact mantissas
  x.data.set([I32_MAX, -I32_MAX, I32_MAX], 192) // huge entries narrow with a shift
  const w = weight(64)
  add('[6, 64] at 2^-20', x, w, 1e-6, grad(6, 64))
  add('[6, 64] at 2^-20, dy with ±(2^31 − 1)', x, w, 1e-6, withEdges(grad(6, 64), dyEdges))
  add('[6, 64] at 2^-20, zero dy', x, w, 1e-5, qtensor([6, 64], -20))
  const ones = fromFloat([64], -24, new Float64Array(64).fill(1))
  add('[6, 64] at 2^-20, weight 1, dy = x (w cancels)', x, ones, 1e-6, qtensor([6, 64], -20, x.data.slice()))
  add('[6, 64] at 2^-20, dy at 2^-50', x, w, 1e-6, grad(6, 64, -50))
  add('[6, 64] at 2^-20, dy at 2^4', x, w, 1e-6, grad(6, 64, 4))
  const wEdges = withEdges(weight(64), [I32_MAX, -I32_MAX, 0, I32_MAX])
  add('[6, 64] at 2^-20, weights ±(2^31 − 1)', x, wEdges, 1e-6, grad(6, 64))
  add('[5, 33] at 2^-20', rows(5, 33, -20, -2000, 2000), weight(33), 1e-6, grad(5, 33))
  add('[3, 1]', rows(3, 1, -20, -1, 1), weight(1), 1e-6, grad(3, 1))
  add('[2, 1024] at 2^-16', rows(2, 1024, -16, -100, 100), weight(1024), 1e-6, grad(2, 1024, -24))
  add('[4, 48] at 2^-8', rows(4, 48, -8, -1000, 1000), weight(48), 1e-3, grad(4, 48))
  add('[37, 8] at 2^-20', rows(37, 8, -20, -4, 4), weight(8), 1e-6, grad(37, 8))
  return cases
}

/**
 * SwiGLU backward (dGate and dUp packed): gate over the forward's range at fine, medium and coarse
 * exponents (2^2: x·q is scaled up, not down), σ saturated (|gate| ≥ 40), dy and up with ±(2^31 − 1)
 * (the exponents grow to hold them), zero dy, and tiny dy.
 */
function swigluBackwardCases(rand: () => number): ParityCase[] {
  const uniform = (n: number, exp: number, lo: number, hi: number) =>
    fromFloat([n], exp, uniformArray(rand, n, lo, hi))
  const cases: ParityCase[] = []
  const pack = (g: SwigluGrads) => packTensors(g.dGate, g.dUp)
  const add = (name: string, gate: QTensor, up: QTensor, dy: QTensor) =>
    cases.push({
      name: `swiglu backward ${name}`,
      twin: () => pack(swigluBackward(gate, up, dy)),
      gpu: async (k) => pack(await k.nonlinear.swigluBackward(gate, up, dy)),
    })
  const n = 48
  const up = withEdges(uniform(n, -20, -12, 12), [I32_MAX, -I32_MAX, 0, I32_MAX])
  const dy = withEdges(uniform(n, -20, -1, 1), [I32_MAX, I32_MAX, I32_MAX, 0, -I32_MAX])
  for (const exp of [-24, -20, -8, 2])
    add(`gate ∈ [−12, 12] at 2^${exp}`, withEdges(uniform(n, exp, -12, 12)), up, dy)
  const saturated = withEdges(uniform(n, -20, -60, 60), [40 * 2 ** 20, -40 * 2 ** 20, I32_MAX, -I32_MAX])
  add('σ saturated', saturated, up, dy)
  const gate = withEdges(uniform(n, -20, -12, 12))
  add('zero dy', gate, up, qtensor([n], -20))
  add('dy at 2^-50, up at 2^-10', gate, uniform(n, -10, -3, 3), uniform(n, -50, -(2 ** -30), 2 ** -30))
  add('no edges', gate, uniform(n, -20, -12, 12), uniform(n, -20, -1, 1))
  return cases
}

function ropeCases(rand: () => number): ParityCase[] {
  const cases: ParityCase[] = []
  for (const [d, maxSeq, theta, heads, t] of [
    [16, 32, 10000, 3, 7],
    [64, 40, 1000000, 2, 5],
  ] as const) {
    const table = ropeTable(d, maxSeq, theta)
    const x = withEdges(fromFloat([t, heads * d], -20, uniformArray(rand, t * heads * d, -8, 8)))
    x.data.set([I32_MAX, I32_MAX, -I32_MAX], d / 2) // partners of the edges: rotations saturate
    const positions = Int32Array.from({ length: t }, () => Math.floor(rand() * maxSeq))
    positions.set([0, maxSeq - 1], 0)
    for (const inverse of [false, true])
      cases.push({
        name: `rope d ${d} θ ${theta}${inverse ? ' inverse' : ''}`,
        twin: () => rope(x, positions, table, inverse),
        gpu: (k) => k.rope.rope(x, positions, table, inverse),
      })
  }
  return cases
}

/** A 64-bit integer (|u| < 2^53) as its (lo, hi) i32 words. */
function words(u: number): [number, number] {
  const hi = Math.floor(u / 2 ** 32)
  return [(u - hi * 2 ** 32) | 0, hi]
}

function primitiveCases(rand: () => number): ParityCase[] {
  const cases: ParityCase[] = []
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1))
  const probe = (
    name: string,
    op: Probe,
    args: number[][],
    s: number,
    outExp: number,
    f: (x: number[]) => number,
  ) => {
    const a = Int32Array.from(args, (x) => x[0]!)
    const b = Int32Array.from(args, (x) => x[1]!)
    cases.push({
      name,
      twin: () => qtensor([args.length], 0, Int32Array.from(args, f)),
      gpu: async (k) => qtensor([args.length], 0, await k.probe.run(op, a, b, s, outExp)),
    })
  }
  const many = (n: number, make: () => number[]) => Array.from({ length: n }, make)
  for (const s of [0, 1, 21, 30, 45]) {
    const args = many(64, () => [int(-I32_MAX, I32_MAX), int(1, I32_MAX)])
    args.push(
      [0, 5],
      [-I32_MAX, 1],
      [I32_MAX, I32_MAX],
      [1, I32_MAX],
      [int(-(2 ** 20), 2 ** 20), int(2 ** 28, I32_MAX)],
    )
    probe(`divRne s ${s}`, Probe.DivRne, args, s, 0, ([n, d]) => divRne(n!, d!, s))
  }
  for (const s of [0, 3]) {
    // exact ties: n·2^s / (2m) = k + 1/2
    const ties = many(64, () => {
      const [k, m] = [int(0, 2 ** 14), int(1, 2 ** 12)]
      const n = (2 * k + 1) * m
      return [rand() < 0.5 ? -n : n, 2 * m * 2 ** s]
    })
    probe(`divRne ties s ${s}`, Probe.DivRne, ties, s, 0, ([n, d]) => divRne(n!, d!, s))
  }
  const positive = many(80, () => {
    const bits = int(1, 53)
    return words(2 ** (bits - 1) + Math.floor(rand() * 2 ** (bits - 1)))
  })
  positive.push(words(1), words(2 ** 53 - 1), words(2 ** 32), words(2 ** 32 - 1), words(3 * 2 ** 29))
  const value = ([lo, hi]: number[]) => hi! * 2 ** 32 + (lo! >>> 0)
  for (const [uExp, outExp] of [
    [-30, -24],
    [0, -30],
    [-60, -20],
    [20, -8],
  ] as const)
    probe(`lnFixed 2^${uExp} → 2^${outExp}`, Probe.Ln, positive, uExp, outExp, (x) =>
      lnFixed(value(x), uExp, outExp),
    )
  for (const [uExp, outExp] of [
    [-40, -20],
    [0, -30],
    [-61, 0],
    [13, -40],
  ] as const)
    probe(`rsqrtFixed 2^${uExp} → 2^${outExp}`, Probe.Rsqrt, positive, uExp, outExp, (x) =>
      rsqrtFixed(value(x), uExp, outExp),
    )
  const signed = many(80, () => words(-Math.floor(rand() * (2 ** 32 - 1))))
  signed.push(
    words(0),
    words(-(2 ** 32 - 1)),
    words(-(2 ** 31)),
    ...many(20, () => words(int(0, 10 * 2 ** 24))),
  )
  const signedValue = ([lo, hi]: number[]) => hi! * 2 ** 32 + (lo! >>> 0)
  for (const [xExp, outExp] of [
    [-24, -30],
    [-16, -30],
    [-30, -20],
  ] as const)
    probe(`expFixed |x| < 2^32 at 2^${xExp} → 2^${outExp}`, Probe.Exp, signed, xExp, outExp, (x) =>
      expFixed(signedValue(x), xExp, outExp),
    )
  return cases
}

export function parityCases(seed = 17): ParitySuites {
  const rand = seededRandom(seed)
  return {
    elementwise: elementwiseCases(rand),
    embedding: embeddingCases(rand),
    nonlinear: nonlinearCases(rand),
    softmax: softmaxCases(rand),
    rmsnorm: rmsNormCases(rand),
    rope: ropeCases(rand),
    primitives: primitiveCases(rand),
    adam: adamCases(rand),
    clip: clipCases(rand),
    grpo: grpoCases(rand),
    sampling: samplingCases(rand),
    attention: attentionCases(rand),
    'softmax-backward': softmaxBackwardCases(rand),
    'rmsnorm-backward': rmsNormBackwardCases(rand),
    'swiglu-backward': swigluBackwardCases(rand),
  }
}

/** The twin's bits of every case, suite by suite. */
export function twinBits(suites: ParitySuites): Record<string, Bits[]> {
  return Object.fromEntries(
    Object.entries(suites).map(([name, cases]) => [name, cases.map((c) => bitsOf(c.twin()))]),
  )
}
