import { describe, expect, it } from 'vitest'
import { attention, attentionBackward, type AttentionShape } from './attention.ts'
import { maxRelToPeak, numericGrad, softmaxRowF64 } from './f64-reference.ts'
import { seededRandom, uniformArray } from './seeded-random.ts'
import { fromFloat, toFloat } from './tensor.ts'

const rand = seededRandom(41)

/** Textbook causal GQA attention in f64. */
function attentionF64(q: Float64Array, k: Float64Array, v: Float64Array, sh: AttentionShape): Float64Array {
  const { batch, seqLen: s, heads, kvHeads, headDim: d } = sh
  const out = new Float64Array(batch * s * heads * d)
  const group = heads / kvHeads
  for (let b = 0; b < batch; b++)
    for (let h = 0; h < heads; h++) {
      const kv = Math.floor(h / group)
      for (let i = 0; i < s; i++) {
        const scores = Float64Array.from({ length: i + 1 }, (_, j) => {
          let dot = 0
          for (let c = 0; c < d; c++)
            dot += q[(b * s + i) * heads * d + h * d + c]! * k[(b * s + j) * kvHeads * d + kv * d + c]!
          return dot
        })
        const p = softmaxRowF64(scores, 1 / Math.sqrt(d))
        for (let c = 0; c < d; c++) {
          let o = 0
          for (let j = 0; j <= i; j++) o += p[j]! * v[(b * s + j) * kvHeads * d + kv * d + c]!
          out[(b * s + i) * heads * d + h * d + c] = o
        }
      }
    }
  return out
}

describe.each([
  ['unit-scale', 2, 1],
  ['small-scale (a model at init)', 0.1, 1e-3],
])('causal GQA attention vs f64, %s inputs', (_, scale, gradScale) => {
  const shape: AttentionShape = { batch: 2, seqLen: 5, heads: 4, kvHeads: 2, headDim: 8 }
  const rows = shape.batch * shape.seqLen
  const q = fromFloat([rows, 32], -20, uniformArray(rand, rows * 32, -scale, scale))
  const k = fromFloat([rows, 16], -20, uniformArray(rand, rows * 16, -scale, scale))
  const v = fromFloat([rows, 16], -20, uniformArray(rand, rows * 16, -scale, scale))

  it('forward: error ≤ 2e-4 of the peak (row-scaled q, k; P at 2^-15; exact P·v)', () => {
    const o = attention(q, k, v, shape)
    expect(maxRelToPeak(toFloat(o), attentionF64(toFloat(q), toFloat(k), toFloat(v), shape))).toBeLessThan(
      2e-4,
    )
  })

  it('backward: dq, dk, dv match finite differences within 2e-4 of the peak', () => {
    const dOut = fromFloat([rows, 32], -20, uniformArray(rand, rows * 32, -gradScale, gradScale))
    const dOutF = toFloat(dOut)
    const loss = (qf: Float64Array, kf: Float64Array, vf: Float64Array) =>
      attentionF64(qf, kf, vf, shape).reduce((s, o, i) => s + o * dOutF[i]!, 0)
    const [qf, kf, vf] = [toFloat(q), toFloat(k), toFloat(v)]
    const { dq, dk, dv } = attentionBackward(q, k, v, dOut, shape)
    const h = scale * 1e-4
    expect(
      maxRelToPeak(
        toFloat(dq),
        numericGrad((x) => loss(x, kf, vf), qf, h),
      ),
    ).toBeLessThan(2e-4)
    expect(
      maxRelToPeak(
        toFloat(dk),
        numericGrad((x) => loss(qf, x, vf), kf, h),
      ),
    ).toBeLessThan(2e-4)
    expect(
      maxRelToPeak(
        toFloat(dv),
        numericGrad((x) => loss(qf, kf, x), vf, h),
      ),
    ).toBeLessThan(2e-4)
  })

  it('a token attends only to its past: changing a later key leaves earlier outputs unchanged', () => {
    const o1 = attention(q, k, v, shape)
    const k2 = fromFloat(
      [rows, 16],
      -20,
      toFloat(k).map((x, i) => (Math.floor(i / 16) === 4 ? x + 1 : x)),
    )
    const o2 = attention(q, k2, v, shape)
    expect(o2.exp).toBe(o1.exp)
    expect(Array.from(o2.data.subarray(0, 4 * 32))).toEqual(Array.from(o1.data.subarray(0, 4 * 32)))
  })
})

describe('attention for the last few queries (a decode step)', () => {
  it('gives the full pass’s rows bit for bit, for 1–3 queries, wide values and a 2^31 edge', () => {
    const shape: AttentionShape = { batch: 3, seqLen: 37, heads: 4, kvHeads: 2, headDim: 16 }
    const { batch, seqLen: s, heads, kvHeads, headDim: d } = shape
    const wide = (n: number) =>
      Int32Array.from({ length: n }, (_, i) =>
        i % 97 === 0 ? 2 ** 31 - 1 : Math.floor((rand() - 0.5) * 2 ** 31),
      )
    const q = { shape: [batch * s, heads * d], exp: -24, data: wide(batch * s * heads * d) }
    const k = { shape: [batch * s, kvHeads * d], exp: -24, data: wide(batch * s * kvHeads * d) }
    const v = { shape: [batch * s, kvHeads * d], exp: -20, data: wide(batch * s * kvHeads * d) }
    const full = attention(q, k, v, shape)
    for (const nq of [1, 2, 3]) {
      // the last nq queries of each sequence, against every key
      const lastRows = (t: Int32Array, cols: number) =>
        Int32Array.from({ length: batch * nq * cols }, (_, i) => {
          const [b, r, c] = [Math.floor(i / (nq * cols)), Math.floor(i / cols) % nq, i % cols]
          return t[(b * s + s - nq + r) * cols + c]!
        })
      const part = attention(
        { shape: [batch * nq, heads * d], exp: q.exp, data: lastRows(q.data, heads * d) },
        k,
        v,
        {
          ...shape,
          queryLen: nq,
        },
      )
      expect(part.exp).toBe(full.exp)
      expect(Array.from(part.data)).toEqual(Array.from(lastRows(full.data, heads * d)))
    }
  })
})
