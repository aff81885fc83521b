import { blockMatmul, type Operand } from './block-matmul.ts'
import { matmulBoundExp } from './matmul.ts'
import { narrow16, narrowRows, roundShift } from './narrow.ts'
import { I16_MAX, rne, sat32 } from './rounding.ts'
import { rsqrtFixed } from './rsqrt.ts'
import { scoreGrad } from './score-grad.ts'
import { PROB_EXP, softmax } from './softmax.ts'
import { maxAbs, qtensor, type QTensor, type RowScaled } from './tensor.ts'
import { dotsWasm, weightedWasm } from './wasm/decode-kernels.ts'
import { WASM_TILE } from './wasm/kernels.ts'

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

/** Exponents for `count` rows or columns that share one. */
const same = (count: number, exp: number): Int32Array => new Int32Array(count).fill(exp)

/** Columns [col, col + width) of rows [row, row + rows) of a [·, cols] tensor, as the rows of op(X). */
function rowsView(data: Int32Array, cols: number, row: number, rows: number, col: number): Operand {
  return { data: data.subarray(row * cols + col), rows, rowStride: cols, kStride: 1 }
}

/** The same block read down its columns: op(X) = blockᵀ, `width` rows of k = `rows` each. */
function columnsView(data: Int32Array, cols: number, row: number, width: number, col: number): Operand {
  return { data: data.subarray(row * cols + col), rows: width, rowStride: 1, kStride: cols }
}

/**
 * A kv group's heads as one reduction (kk·group + member): op(X) = the stacked [group·S, width]
 * blocks of each member, transposed. Member g's block starts `memberStride` elements after g − 1's.
 */
function groupView(
  data: Int32Array,
  cols: number,
  at: number,
  width: number,
  group: number,
  memberStride: number,
): Operand {
  return {
    data: data.subarray(at),
    rows: width,
    rowStride: 1,
    kStride: cols,
    groups: group,
    groupStride: memberStride,
  }
}

/** The last row of row tile t (of `rows`): the row whose causal limit bounds the tile's. */
const lastRow = (t: number, rows: number): number => Math.min(rows, (t + 1) * WASM_TILE) - 1

/**
 * out [B·Q, H·d] = each (sequence, head) block of x [B·H·Q, S] (P or dS: 0 past each query's causal
 * limit, so a query tile sums up to it) times its kv head's block of y [B·S, KV·d] (v or k).
 */
function queryBlocksTimesKv(x: QTensor, y: QTensor, yMax: number, shape: AttentionShape, out: QTensor): void {
  const { batch, seqLen: s, heads, headDim: d } = shape
  const nq = shape.queryLen ?? s
  const [yc, oc] = [y.shape[1]!, heads * d]
  const valid = causal(s, nq)
  if (nq < WASM_TILE) return directTimesKv(x, y, shape, out)
  const [xExps, yExps] = [same(nq, x.exp), same(d, y.exp)]
  for (let b = 0; b < batch; b++)
    for (let h = 0; h < heads; h++)
      blockMatmul({
        a: rowsView(x.data, s, (b * heads + h) * nq, nq, 0),
        b: columnsView(y.data, yc, b * s, d, kvOf(h, shape) * d),
        k: s,
        aExps: xExps,
        bExps: yExps,
        outExp: out.exp,
        aMax: I16_MAX,
        bMax: yMax,
        out: out.data,
        at: b * nq * oc + h * d,
        stride: oc,
        tile: (t) => ({ cols: d, from: 0, to: valid(lastRow(t, nq)) }),
      })
}

/**
 * `queryBlocksTimesKv` for fewer queries than a tile (a decode step): plain sums, one rounding each —
 * a block product would pad every query to a tile and pack both blocks. Exact in any order: x is P
 * (a row sums to at most 2^15 + S at 2^-15) or, in a backward of fewer than 4 positions, dS (int16),
 * so |Σ| stays far below 2^53 with |y| < 2^31. Every query row is a job of the wasm kernel
 * (decode-kernels.ts), or of the loop below.
 */
function directTimesKv(x: QTensor, y: QTensor, shape: AttentionShape, out: QTensor): void {
  const { batch, seqLen: s, heads, headDim: d } = shape
  const nq = shape.queryLen ?? s
  const [yc, oc] = [y.shape[1]!, heads * d]
  const valid = causal(s, nq)
  const shift = out.exp - x.exp - y.exp
  // one job per query row and head: [xAt, yAt, outAt, n]
  const jobs = new Int32Array(4 * batch * heads * nq)
  for (let b = 0, at = 0; b < batch; b++)
    for (let h = 0; h < heads; h++)
      for (let r = 0; r < nq; r++, at += 4) {
        jobs[at] = ((b * heads + h) * nq + r) * s
        jobs[at + 1] = b * s * yc + kvOf(h, shape) * d
        jobs[at + 2] = (b * nq + r) * oc + h * d
        jobs[at + 3] = valid(r)
      }
  if (weightedWasm(x.data, y.data, jobs, yc, d, shift, out.data)) return
  for (let at = 0; at < jobs.length; at += 4) {
    const [xAt, yAt, outAt, n] = [jobs[at]!, jobs[at + 1]!, jobs[at + 2]!, jobs[at + 3]!]
    for (let dd = 0; dd < d; dd++) {
      let sum = 0
      for (let j = 0; j < n; j++) sum += x.data[xAt + j]! * y.data[yAt + j * yc + dd]!
      out.data[outAt + dd] = sat32(rne(sum, shift))
    }
  }
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
  const valid = causal(s, nq)
  // the masked scores are never read (the softmax sees valid columns only): left 0, never summed
  const scores = qtensor([batch * heads * nq, s], SCORE_EXP)
  const scoresOf = nq < WASM_TILE ? directScores : blockScores
  scoresOf(narrowRows(q), narrowRows(k), shape, scores)
  const p = softmax(scores, { scaleQ30: rsqrtFixed(d, 0, -30), validCols: valid })
  remembered.set(q.data, { k: k.data, key, p })
  return p
}

/** Scores q·kᵀ block by block, each query tile up to its causal limit. */
function blockScores(qr: RowScaled, kr: RowScaled, shape: AttentionShape, scores: QTensor): void {
  const { batch, seqLen: s, heads, headDim: d } = shape
  const nq = shape.queryLen ?? s
  const [qc, kc] = [qr.shape[1]!, kr.shape[1]!]
  const valid = causal(s, nq)
  for (let b = 0; b < batch; b++)
    for (let h = 0; h < heads; h++)
      blockMatmul({
        a: rowsView(qr.data, qc, b * nq, nq, h * d),
        b: rowsView(kr.data, kc, b * s, s, kvOf(h, shape) * d),
        k: d,
        aExps: qr.rowExps.subarray(b * nq, (b + 1) * nq),
        bExps: kr.rowExps.subarray(b * s, (b + 1) * s),
        outExp: SCORE_EXP,
        aMax: I16_MAX,
        bMax: I16_MAX,
        out: scores.data,
        at: (b * heads + h) * nq * s,
        stride: s,
        tile: (t) => ({ cols: valid(lastRow(t, nq)), from: 0, to: d }),
      })
}

/**
 * A decode step's scores as plain exact sums (d int16 products < 2^30 each), one rounding each; the
 * same bits as the block products, which would pad every query to a tile and pack both blocks. Every
 * query row is a job of the wasm kernel (decode-kernels.ts), or of the loop below.
 */
function directScores(qr: RowScaled, kr: RowScaled, shape: AttentionShape, scores: QTensor): void {
  const { batch, seqLen: s, heads, headDim: d } = shape
  const nq = shape.queryLen ?? s
  const [qc, kc] = [qr.shape[1]!, kr.shape[1]!]
  const valid = causal(s, nq)
  // one job per query row and head: [qAt, kAt, kExpAt, outAt, n, rowShift]
  const jobs = new Int32Array(6 * batch * heads * nq)
  for (let b = 0, at = 0; b < batch; b++)
    for (let h = 0; h < heads; h++)
      for (let r = 0; r < nq; r++, at += 6) {
        jobs[at] = (b * nq + r) * qc + h * d
        jobs[at + 1] = b * s * kc + kvOf(h, shape) * d
        jobs[at + 2] = b * s
        jobs[at + 3] = ((b * heads + h) * nq + r) * s
        jobs[at + 4] = valid(r)
        jobs[at + 5] = SCORE_EXP - qr.rowExps[b * nq + r]!
      }
  if (dotsWasm(qr.data, kr.data, kr.rowExps, jobs, kc, d, scores.data)) return
  for (let at = 0; at < jobs.length; at += 6) {
    const [qAt, kAt, kExpAt, outAt] = [jobs[at]!, jobs[at + 1]!, jobs[at + 2]!, jobs[at + 3]!]
    const [n, rowShift] = [jobs[at + 4]!, jobs[at + 5]!]
    for (let j = 0; j < n; j++) {
      let sum = 0
      for (let dd = 0; dd < d; dd++) sum += qr.data[qAt + dd]! * kr.data[kAt + j * kc + dd]!
      scores.data[outAt + j] = sat32(rne(sum, rowShift - kr.rowExps[kExpAt + j]!))
    }
  }
}

/** P at 2^-15 per probability tensor: the backward takes the forward's probabilities again. */
const p15s = new WeakMap<QTensor, QTensor>()

function toP15(p: QTensor): QTensor {
  const hit = p15s.get(p)
  if (hit) return hit
  const out = qtensor(p.shape, P15_EXP)
  roundShift(p.data, P15_EXP - PROB_EXP, out.data)
  for (let i = 0; i < out.data.length; i++) if (out.data[i]! > I16_MAX) out.data[i] = I16_MAX // p = 1
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
  const out = qtensor([batch * nq, heads * d], v.exp)
  queryBlocksTimesKv(toP15(probabilities(q, k, shape)), v, maxAbs(v.data), shape, out)
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
  const [qc, vc, oc] = [q.shape[1]!, v.shape[1]!, heads * d]
  const dpExp = matmulBoundExp(don, v, d) // whole-tensor maxima: one exponent for every block
  const [kMax, qMax, vMax] = [maxAbs(k.data), maxAbs(q.data), maxAbs(v.data)]
  // dP in full: its masked entries meet p = 0, but the softmax backward's exponent reads max|dP|
  const dps = qtensor([batch * heads * s, s], dpExp)
  const [donRows, vRows] = [same(s, don.exp), same(s, v.exp)]
  for (let b = 0; b < batch; b++)
    for (let h = 0; h < heads; h++)
      blockMatmul({
        a: rowsView(don.data, oc, b * s, s, h * d),
        b: rowsView(v.data, vc, b * s, s, kvOf(h, shape) * d),
        k: d,
        aExps: donRows,
        bExps: vRows,
        outExp: dpExp,
        aMax: I16_MAX,
        bMax: vMax,
        out: dps.data,
        at: (b * heads + h) * s * s,
        stride: s,
      })
  const scale = qtensor([1], -30, Int32Array.of(rsqrtFixed(d, 0, -30)))
  // dS at SCORE_EXP's scale: the scores were multiplied by 2^SCORE_EXP before the softmax saw them
  const ds = scoreGrad(p, dps, scale)

  const group = heads / kvHeads
  // one exponent per gradient, from whole-tensor maxima, so every block lands in the same format
  const dqExp = matmulBoundExp(ds, k, s)
  const dkExp = matmulBoundExp(ds, q, group * s)
  const dvExp = matmulBoundExp(p15, don, group * s)
  const dq = qtensor([batch * s, heads * d], dqExp)
  const dk = qtensor([batch * s, kvHeads * d], dkExp)
  const dv = qtensor([batch * s, kvHeads * d], dvExp)
  queryBlocksTimesKv(ds, k, kMax, shape, dq)
  // key tile t of dK and dV sums over the queries from 4t on (every member's): dS and P are 0 past
  // each query's causal limit, so those are the only queries that see its keys
  const keys = (t: number) => ({ cols: d, from: t * WASM_TILE * group, to: s * group })
  const [dsExps, pExps, qExps, donExps] = [
    same(s, ds.exp),
    same(s, P15_EXP),
    same(d, q.exp),
    same(d, don.exp),
  ]
  for (let b = 0; b < batch; b++) {
    for (let kv = 0; kv < kvHeads; kv++) {
      const first = (b * heads + kv * group) * s * s // the group's first member block of dS and P
      const common = {
        k: group * s,
        stride: kvHeads * d,
        at: b * s * kvHeads * d + kv * d,
        tile: keys,
      }
      blockMatmul({
        ...common,
        a: groupView(ds.data, s, first, s, group, s * s),
        b: groupView(q.data, qc, b * s * qc + kv * group * d, d, group, d),
        aExps: dsExps,
        bExps: qExps,
        outExp: dkExp,
        aMax: I16_MAX,
        bMax: qMax,
        out: dk.data,
      })
      blockMatmul({
        ...common,
        a: groupView(p15.data, s, first, s, group, s * s),
        b: groupView(don.data, oc, b * s * oc + kv * group * d, d, group, d),
        aExps: pExps,
        bExps: donExps,
        outExp: dvExp,
        aMax: I16_MAX,
        bMax: I16_MAX,
        out: dv.data,
      })
    }
  }
  return { dq, dk, dv }
}
