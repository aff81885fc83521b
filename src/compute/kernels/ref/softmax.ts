import { LOG2E_Q30, expFixed } from './exp.ts'
import { expForMagnitude } from './elementwise.ts'
import { lnQ30 } from './log.ts'
import { bitLength, ceilLog2, divRne, mulRne, rne, sat32 } from './rounding.ts'
import { assertShape, maxAbs, qtensor, type QTensor } from './tensor.ts'
import { expRowWasm, softmaxBackRowsWasm, softmaxRowsWasm } from './wasm/kernels.ts'
import { mulRneEach } from './mul-each.ts'

/** Probabilities are Q30: p·2^30, so 1.0 is exactly representable. */
export const PROB_EXP = -30

export interface SoftmaxOptions {
  /**
   * Multiplier c applied to the logits inside the exponent, in Q30 (attention's 1/√d). Folding it
   * into the log2(e) constant costs no extra rounding.
   */
  readonly scaleQ30?: number
  /** Columns [0, validCols(row)) take part; the rest get probability 0 (causal masks). */
  readonly validCols?: (row: number) => number
}

interface RowExps {
  /** e^(c·(x_j − max)) in Q30 for the valid columns, in a scratch buffer (or wasm memory) the next row reuses. */
  readonly e: Float64Array
  /** Exact sum of e (< 2^52 for rows up to 2^22 long). */
  readonly sum: number
  readonly valid: number
  readonly max: number
}

/** Scratch for one row's exponentials: rows are processed one at a time, so one buffer serves all. */
let scratch = new Float64Array(0)

/** log2(e)·c in Q30: the scale folded into the exponent's constant. */
function log2eOf(options: SoftmaxOptions): number {
  return options.scaleQ30 === undefined ? LOG2E_Q30 : mulRne(LOG2E_Q30, options.scaleQ30, 30)
}

function rowExps(x: QTensor, row: number, options: SoftmaxOptions): RowExps {
  const n = x.shape[1]!
  const valid = options.validCols?.(row) ?? n
  const log2e = log2eOf(options)
  const base = row * n
  let max = -Infinity
  for (let j = 0; j < valid; j++) max = Math.max(max, x.data[base + j]!)
  const fast = valid > 0 ? expRowWasm(x.data, base, valid, max, x.exp, PROB_EXP, log2e) : undefined
  if (fast) return { e: fast.e, sum: fast.sum, valid, max }
  if (scratch.length < valid) scratch = new Float64Array(valid)
  const e = scratch
  let sum = 0
  for (let j = 0; j < valid; j++) {
    // x_j − max ∈ (−2^32, 0]: WGSL carries it as a u32 magnitude
    e[j] = expFixed(x.data[base + j]! - max, x.exp, PROB_EXP, log2e)
    sum += e[j]!
  }
  return { e, sum, valid, max }
}

function rows2(x: QTensor): [number, number] {
  if (x.shape.length !== 2)
    throw new RangeError(`softmax input must be 2-D [rows, cols], got [${x.shape.join(', ')}]`)
  return [x.shape[0]!, x.shape[1]!]
}

/**
 * One row of the softmax into out[row·n …], the definition: the row sum is normalised to ≤ 2^31 (one
 * rounding), then each probability is one round-half-even long division e_j·2^30 / sum. Masked
 * columns are left as they are (0 in a fresh tensor). Exported for the kernel's parity test.
 */
export function softmaxRowTs(x: QTensor, row: number, out: Int32Array, options: SoftmaxOptions = {}): void {
  const n = x.shape[1]!
  const { e, sum, valid } = rowExps(x, row, options)
  const shift = Math.max(0, bitLength(sum) - 31)
  const den = rne(sum, shift)
  for (let j = 0; j < valid; j++) out[row * n + j] = divRne(e[j]!, den, 30 - shift)
}

/** Rows [from, from + count) of the softmax by the wasm kernel (masked columns written 0); false where it does not run. */
function softmaxRowsFast(
  x: QTensor,
  from: number,
  count: number,
  out: Int32Array,
  options: SoftmaxOptions,
): boolean {
  const n = x.shape[1]!
  const valid = new Int32Array(count)
  for (let i = 0; i < count; i++) valid[i] = options.validCols?.(from + i) ?? n
  const [start, end] = [from * n, (from + count) * n]
  return softmaxRowsWasm(
    x.data.subarray(start, end),
    n,
    valid,
    x.exp,
    log2eOf(options),
    out.subarray(start, end),
  )
}

/** Row softmax in Q30: every row in one kernel call, or `softmaxRowTs` row by row. */
export function softmax(x: QTensor, options: SoftmaxOptions = {}): QTensor {
  const [r, n] = rows2(x)
  const out = qtensor([r, n], PROB_EXP)
  if (!softmaxRowsFast(x, 0, r, out.data, options))
    for (let i = 0; i < r; i++) softmaxRowTs(x, i, out.data, options)
  return out
}

/** What every log-softmax entry of a row shares: its max and ln Σ e at the working exponent. */
interface LogRow {
  readonly valid: number
  readonly max: number
  readonly lnSum: number
  /** The working exponent, up to 20 bits finer than the input. */
  readonly w: number
}

function logRow(x: QTensor, row: number, options: SoftmaxOptions): LogRow {
  const w = Math.max(Math.min(x.exp, PROB_EXP), x.exp - 20)
  const { sum, valid, max } = rowExps(x, row, options)
  return { valid, max, lnSum: rne(lnQ30(sum, PROB_EXP), w - PROB_EXP), w }
}

/** Entry (row, j) of the log-softmax at outExp; −(2^31−1) (log 0 saturated) for masked columns. */
function logEntry(x: QTensor, row: number, j: number, r: LogRow, outExp: number, scaleQ30: number): number {
  if (j >= r.valid) return -(2 ** 31 - 1)
  // c·(x_j − max) at exponent w: the scale multiply is the one extra rounding when c ≠ 1
  const d = mulRne(x.data[row * x.shape[1]! + j]! - r.max, scaleQ30, 30 + r.w - x.exp)
  return sat32(rne(d - r.lnSum, outExp - r.w))
}

/**
 * Row log-softmax at outExp: (x_j − max)·c − ln Σ e, summed exactly at a working exponent up to 20 bits
 * finer than the input, then rounded once. Masked columns are −(2^31−1) (log 0 saturated).
 */
export function logSoftmax(x: QTensor, outExp: number, options: SoftmaxOptions = {}): QTensor {
  const [r, n] = rows2(x)
  const out = qtensor([r, n], outExp)
  const scale = options.scaleQ30 ?? 2 ** 30
  for (let i = 0; i < r; i++) {
    const row = logRow(x, i, options)
    for (let j = 0; j < n; j++) out.data[i * n + j] = logEntry(x, i, j, row, outExp, scale)
  }
  return out
}

/** Entry (row, cols[row]) of every row's log-softmax at outExp: the rest of each row is never formed. */
export function logSoftmaxAt(x: QTensor, cols: Int32Array, outExp: number): QTensor {
  const [r] = rows2(x)
  const out = qtensor([r], outExp)
  for (let i = 0; i < r; i++) out.data[i] = logEntry(x, i, cols[i]!, logRow(x, i, {}), outExp, 2 ** 30)
  return out
}

/**
 * Softmax backward: dx_j = p_j·(dp_j − Σ_k p_k·dp_k). The dot is summed exactly from products rounded
 * with enough guard bits for the row length; its result and dx are rounded once each.
 */
export function softmaxBackward(p: QTensor, dp: QTensor): QTensor {
  const [r, n] = rows2(p)
  assertShape(dp, p.shape, 'softmax dp')
  const { guard, ex, t } = softmaxBackShifts(n, dp.exp, maxAbs(dp.data))
  const u = new Int32Array(r * n)
  if (!softmaxBackRowsWasm(p.data, dp.data, n, guard, t, u))
    for (let i = 0; i < r; i++) {
      let dot = 0
      for (let j = 0; j < n; j++) dot += mulRne(p.data[i * n + j]!, dp.data[i * n + j]!, 30 - guard)
      for (let j = 0; j < n; j++) u[i * n + j] = sat32(rne(dp.data[i * n + j]! * 2 ** guard - dot, t))
    }
  const { exp, shift } = softmaxBackOut(ex, maxAbs(u))
  const out = qtensor([r, n], exp)
  mulRneEach(p.data, u, shift, out.data)
  return out
}

/**
 * softmaxBackward's fixed points for rows of n and dp at dpExp: the guard bits of the row dot, the
 * exponent ex of dp − dot (|dp − dot| ≤ 2·max|dp|) and the shift t that puts it there.
 */
export function softmaxBackShifts(n: number, dpExp: number, dpMax: number) {
  const guard = 21 - ceilLog2(Math.max(n, 1))
  const ex = expForMagnitude(bitLength(dpMax) + dpExp + 1)
  return { guard, ex, t: ex - dpExp + guard }
}

/** softmaxBackward's output exponent, from max|u| at ex, and the shift of the product p·u. */
export function softmaxBackOut(ex: number, uMax: number) {
  const exp = expForMagnitude(bitLength(uMax) + ex)
  return { exp, shift: 30 + exp - ex }
}
