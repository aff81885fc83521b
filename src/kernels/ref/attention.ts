import { mul } from './elementwise.ts'
import { matmul, matmulBoundExp } from './matmul.ts'
import { narrow16, narrowRows } from './narrow.ts'
import { I16_MAX, rneI32 } from './rounding.ts'
import { rsqrtFixed } from './rsqrt.ts'
import { PROB_EXP, softmax, softmaxBackward } from './softmax.ts'
import { qtensor, type QTensor, type RowScaled } from './tensor.ts'

/** Attention scores q·k are held at 2^-16 (range ±32768) before the 1/√d scale inside the softmax. */
export const SCORE_EXP = -16
/**
 * Probabilities enter P·V as int16 mantissas at the fixed exponent 2^-15, the same for every head
 * and sequence (so group sums are single matmuls); p = 1 saturates to 1 − 2^-15.
 */
const P15_EXP = -15

export interface AttentionShape {
  /** Sequences in the batch; key/value rows are [batch·seqLen]. */
  readonly batch: number
  readonly seqLen: number
  /**
   * Query rows per sequence (default seqLen): the queries are the last queryLen positions, so a
   * KV-cached decode step passes its new tokens as queries against the whole cache.
   */
  readonly queryLen?: number
  readonly heads: number
  readonly kvHeads: number
  readonly headDim: number
}

/** Rows [b·S, (b+1)·S) and columns [col, col+width) of a [rows, cols] tensor. */
function block(t: QTensor, b: number, s: number, col: number, width: number): QTensor {
  const cols = t.shape[1]!
  const out = qtensor([s, width], t.exp)
  for (let i = 0; i < s; i++)
    out.data.set(t.data.subarray((b * s + i) * cols + col, (b * s + i) * cols + col + width), i * width)
  return out
}

function rowBlock(t: RowScaled, b: number, s: number, col: number, width: number): RowScaled {
  const cols = t.shape[1]
  const out: RowScaled = {
    shape: [s, width],
    rowExps: t.rowExps.slice(b * s, (b + 1) * s),
    data: new Int32Array(s * width),
  }
  for (let i = 0; i < s; i++)
    out.data.set(t.data.subarray((b * s + i) * cols + col, (b * s + i) * cols + col + width), i * width)
  return out
}

function place(dst: Int32Array, cols: number, src: QTensor, b: number, s: number, col: number): void {
  const width = src.shape[1]!
  for (let i = 0; i < s; i++) dst.set(src.data.subarray(i * width, (i + 1) * width), (b * s + i) * cols + col)
}

/** Stacks same-exponent [r_i, c] tensors into [Σ r_i, c]. */
function stack(parts: readonly QTensor[]): QTensor {
  if (parts.some((p) => p.exp !== parts[0]!.exp))
    throw new Error('attention: stacked blocks must share an exponent')
  const out = qtensor([parts.reduce((n, p) => n + p.shape[0]!, 0), parts[0]!.shape[1]!], parts[0]!.exp)
  let at = 0
  for (const p of parts) {
    out.data.set(p.data, at)
    at += p.data.length
  }
  return out
}

/** Row block i of a stacked [n·S, c] tensor. */
function rowsOf(t: QTensor, i: number, s: number): QTensor {
  const c = t.shape[1]!
  return qtensor([s, c], t.exp, t.data.slice(i * s * c, (i + 1) * s * c))
}

/** Query row r of a sequence sits at position seqLen − queryLen + r and sees keys up to it. */
export function causal(seqLen: number, queryLen: number): (row: number) => number {
  return (row) => seqLen - queryLen + (row % queryLen) + 1
}

function kvOf(h: number, shape: AttentionShape): number {
  return Math.floor(h / (shape.heads / shape.kvHeads))
}

/**
 * The forward's probabilities per query tensor, for the backward (which takes the same q and k): the
 * softmax is not recomputed. Sound because tensors are values (no op writes its inputs, nothing
 * writes a tensor after handing it to an op); keys, exponents and shape are checked too.
 */
const remembered = new WeakMap<
  Int32Array,
  { readonly k: Int32Array; readonly key: string; readonly p: QTensor }
>()

/**
 * Probabilities of every (sequence, head) block, stacked [batch·heads·queryLen, seqLen] in Q30. q
 * and k are narrowed per row, so a query's scores depend only on itself and the keys it may see:
 * never on later tokens, other sequences, or how many queries are computed at once.
 */
function probabilities(q: QTensor, k: QTensor, shape: AttentionShape): QTensor {
  const { batch, seqLen: s, heads, kvHeads, headDim: d } = shape
  const nq = shape.queryLen ?? s
  const key = `${q.exp}/${k.exp}/${batch}/${s}/${nq}/${heads}/${kvHeads}/${d}`
  const hit = remembered.get(q.data)
  if (hit && hit.k === k.data && hit.key === key) return hit.p
  if (heads % kvHeads !== 0)
    throw new RangeError(`attention: ${heads} heads do not group into ${kvHeads} kv heads`)
  if (nq > s) throw new RangeError(`attention: ${nq} queries per sequence exceed ${s} keys`)
  const [qr, kr] = [narrowRows(q), narrowRows(k)]
  const scores: QTensor[] = []
  for (let b = 0; b < batch; b++)
    for (let h = 0; h < heads; h++)
      scores.push(
        matmul(rowBlock(qr, b, nq, h * d, d), rowBlock(kr, b, s, kvOf(h, shape) * d, d), {
          transB: true,
          outExp: SCORE_EXP,
        }),
      )
  const p = softmax(stack(scores), { scaleQ30: rsqrtFixed(d, 0, -30), validCols: causal(s, nq) })
  remembered.set(q.data, { k: k.data, key, p })
  return p
}

/** P at 2^-15 per probability tensor: the backward takes the forward's probabilities again. */
const p15s = new WeakMap<QTensor, QTensor>()

function toP15(p: QTensor): QTensor {
  const hit = p15s.get(p)
  if (hit) return hit
  const out = qtensor(p.shape, P15_EXP)
  const s = P15_EXP - PROB_EXP
  for (let i = 0; i < p.data.length; i++) out.data[i] = Math.min(I16_MAX, rneI32(p.data[i]!, s))
  p15s.set(p, out)
  return out
}

/**
 * Causal grouped-query attention softmax(q·kᵀ/√d)·v per sequence and head; q is [B·Q, H·d] (Q =
 * queryLen, the last positions), k and v [B·S, KV·d] (wide i32). The output [B·Q, H·d] has v's exponent: a convex combination never exceeds
 * max|v| (the rounded P sums to at most 1 + S·2^-16), and P·v is exact with v split into limbs.
 * Only row-local and fixed formats are used, so each token's output depends on its past alone.
 */
export function attention(q: QTensor, k: QTensor, v: QTensor, shape: AttentionShape): QTensor {
  const { batch, seqLen: s, heads, headDim: d } = shape
  const nq = shape.queryLen ?? s
  const p15 = toP15(probabilities(q, k, shape))
  const out = qtensor([batch * nq, heads * d], v.exp)
  for (let b = 0; b < batch; b++)
    for (let h = 0; h < heads; h++) {
      const o = matmul(rowsOf(p15, b * heads + h, nq), block(v, b, s, kvOf(h, shape) * d, d), {
        outExp: v.exp,
      })
      place(out.data, heads * d, o, b, nq, h * d)
    }
  return out
}

export interface AttentionGrads {
  readonly dq: QTensor
  readonly dk: QTensor
  readonly dv: QTensor
}

/**
 * Backward of `attention`, recomputing the probabilities bit-for-bit. dOut and dS are narrowed per
 * tensor (the backward pass has no causality to keep); q, k, v enter the matmuls as exact wide limbs.
 * Every block's dP has one static exponent, so one softmax backward covers all blocks, and the
 * kv-group sums (dK, dV) are single matmuls over the group's stacked rows.
 */
export function attentionBackward(
  q: QTensor,
  k: QTensor,
  v: QTensor,
  dOut: QTensor,
  shape: AttentionShape,
): AttentionGrads {
  const { batch, seqLen: s, heads, kvHeads, headDim: d } = shape
  if ((shape.queryLen ?? s) !== s) throw new RangeError('attentionBackward: training attends every position')
  const p = probabilities(q, k, shape)
  const p15 = toP15(p)
  const don = narrow16(dOut)
  const dpExp = matmulBoundExp(don, v, d) // whole-tensor maxima: one exponent for every block
  const dps: QTensor[] = []
  for (let b = 0; b < batch; b++)
    for (let h = 0; h < heads; h++)
      dps.push(
        matmul(block(don, b, s, h * d, d), block(v, b, s, kvOf(h, shape) * d, d), {
          transB: true,
          outExp: dpExp,
        }),
      )
  const scale = qtensor([1], -30, Int32Array.of(rsqrtFixed(d, 0, -30)))
  // dS at SCORE_EXP's scale: the scores were multiplied by 2^SCORE_EXP before the softmax saw them
  const ds = narrow16(mul(softmaxBackward(p, stack(dps)), scale))

  const group = heads / kvHeads
  const blocks = (h: number, b: number) => ({
    ds: rowsOf(ds, b * heads + h, s),
    p: rowsOf(p15, b * heads + h, s),
    q: block(q, b, s, h * d, d),
    dOut: block(don, b, s, h * d, d),
  })
  const parts = Array.from({ length: batch }, (_, b) => Array.from({ length: heads }, (_, h) => blocks(h, b)))
  // one exponent per gradient, from whole-tensor maxima, so every block lands in the same format
  const dqExp = matmulBoundExp(ds, k, s)
  const dkExp = matmulBoundExp(ds, q, group * s)
  const dvExp = matmulBoundExp(p15, don, group * s)
  const dq = qtensor([batch * s, heads * d], dqExp)
  const dk = qtensor([batch * s, kvHeads * d], dkExp)
  const dv = qtensor([batch * s, kvHeads * d], dvExp)
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < heads; h++) {
      const dqh = matmul(parts[b]![h]!.ds, block(k, b, s, kvOf(h, shape) * d, d), { outExp: dqExp })
      place(dq.data, heads * d, dqh, b, s, h * d)
    }
    for (let kv = 0; kv < kvHeads; kv++) {
      const members = parts[b]!.slice(kv * group, (kv + 1) * group)
      const dkg = matmul(stack(members.map((m) => m.ds)), stack(members.map((m) => m.q)), {
        transA: true,
        outExp: dkExp,
      })
      const dvg = matmul(stack(members.map((m) => m.p)), stack(members.map((m) => m.dOut)), {
        transA: true,
        outExp: dvExp,
      })
      place(dk.data, kvHeads * d, dkg, b, s, kv * d)
      place(dv.data, kvHeads * d, dvg, b, s, kv * d)
    }
  }
  return { dq, dk, dv }
}
