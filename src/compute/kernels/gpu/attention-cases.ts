// Seeded WGSL-vs-twin cases of the attention forward: grouped and plain heads, a KV-cached query
// window, rows that narrow with a shift, zero rows, equal keys (tied scores) and saturating scores.
import { attention, attentionBackward, type AttentionGrads, type AttentionShape } from '../ref/attention.ts'
import { I32_MAX } from '../ref/rounding.ts'
import { uniformArray } from '../ref/seeded-random.ts'
import { softmax, softmaxBackward } from '../ref/softmax.ts'
import { fromFloat, type QTensor } from '../ref/tensor.ts'
import type { ParityCase } from './kernel-set.ts'
import { packTensors, withEdges } from './parity-helpers.ts'

export function attentionCases(rand: () => number): ParityCase[] {
  const tensor = (rows: number, cols: number, bound: number) =>
    fromFloat([rows, cols], -20, uniformArray(rand, rows * cols, -bound, bound))
  const cases: ParityCase[] = []
  const push = (
    name: string,
    shape: AttentionShape,
    bound: number,
    edit?: (q: QTensor, k: QTensor, v: QTensor) => void,
  ) => {
    const { batch, seqLen: s, heads, kvHeads, headDim: d } = shape
    const nq = shape.queryLen ?? s
    const [q, k, v] = [
      tensor(batch * nq, heads * d, bound),
      tensor(batch * s, kvHeads * d, bound),
      tensor(batch * s, kvHeads * d, bound),
    ]
    edit?.(q, k, v)
    cases.push({
      name: `attention ${name}`,
      twin: () => attention(q, k, v, shape),
      gpu: (kernels) => kernels.attention.forward(q, k, v, shape),
    })
    if (nq !== s) return // training (the backward) attends every position
    const dOut = tensor(batch * s, heads * d, bound)
    const pack = (g: AttentionGrads) => packTensors(g.dq, g.dk, g.dv)
    cases.push({
      name: `attention backward ${name}`,
      twin: () => pack(attentionBackward(q, k, v, dOut, shape)),
      gpu: async (kernels) => pack(await kernels.attention.backward(q, k, v, dOut, shape)),
    })
  }
  const gqa: AttentionShape = { batch: 2, seqLen: 5, heads: 4, kvHeads: 2, headDim: 8 }
  push('GQA 4/2 heads, |q|, |k|, |v| ≤ 2', gqa, 2, (q, k) => {
    q.data.fill(0, 0, 32) // a zero query row: narrows without a shift
    k.data.copyWithin(16, 0, 16) // keys 0 and 1 equal: tied scores
  })
  push('|q|, |k|, |v| ≤ 0.1', gqa, 0.1)
  push('KV-cached window of 2 queries', { ...gqa, queryLen: 2 }, 2)
  push(
    'one head, d 16, ±(2^31 − 1): scores saturate',
    { batch: 1, seqLen: 6, heads: 1, kvHeads: 1, headDim: 16 },
    2,
    (q, k, v) => {
      for (const t of [q, k, v]) t.data.fill(I32_MAX, 0, 16)
      k.data.fill(-I32_MAX, 16, 32)
    },
  )
  return cases
}

export function softmaxBackwardCases(rand: () => number): ParityCase[] {
  const cases: ParityCase[] = []
  for (const [rows, n, scale] of [
    [6, 9, 1],
    [4, 40, 1e-3],
    [3, 300, 30],
  ] as const) {
    const logits = fromFloat([rows, n], -16, uniformArray(rand, rows * n, -8, 8))
    logits.data.fill(0, 0, n) // a uniform row
    const p = softmax(logits, { validCols: (row) => (row === 1 ? 1 : n - row) }) // row 1: p = 1
    const dp = withEdges(fromFloat([rows, n], -24, uniformArray(rand, rows * n, -scale, scale)), [
      I32_MAX,
      -I32_MAX,
      0,
    ])
    cases.push({
      name: `softmax backward [${rows}, ${n}], |dp| ≤ ${scale}`,
      twin: () => softmaxBackward(p, dp),
      gpu: (k) => k.softmax.softmaxBackward(p, dp),
    })
  }
  return cases
}
