// The pieces of the decoder graph that are more than one ONNX op: RMSNorm, RoPE, the attention bias
// and the head reshapes. Each adds its nodes to a GraphBuilder and returns the output name; the
// formulas are those of forward-f64.ts.
import { headDim, type ModelConfig } from '../config.ts'
import type { GraphBuilder } from './graph-builder.ts'

/**
 * Added to the attention score of a key a query must not see. Finite on purpose: exp(−1e9 − max)
 * is exactly 0 in float32 for any real score, while a row whose keys are all masked (a padding
 * query under left padding) still has a finite maximum and gets uniform weights instead of NaN,
 * which −Infinity would give (−∞ − (−∞)) and spread through the padding's keys and values.
 */
export const MASKED_SCORE = -1e9

/** TensorProto.DataType BOOL, the `to` of Cast. */
const BOOL = 9

/**
 * x / √(mean(x²) + eps) · gain over the last axis, as the op chain Pow → ReduceMean → Add → Sqrt →
 * Div → Mul that PyTorch exports produce and onnxruntime fuses into one SimplifiedLayerNormalization.
 */
export function rmsNorm(g: GraphBuilder, x: string, gain: string, eps: number): string {
  const meanSquare = g.op('ReduceMean', [g.op('Pow', [x, g.float(2)])], [{ name: 'axes', ints: [-1] }])
  const rms = g.op('Sqrt', [g.op('Add', [meanSquare, g.float(eps)])])
  return g.op('Mul', [g.op('Div', [x, rms]), gain])
}

/** Size of `axis` of `input` as an int64 scalar. */
function dimOf(g: GraphBuilder, input: string, axis: number): string {
  return g.op('Gather', [g.op('Shape', [input]), g.int64([axis], true)], [{ name: 'axis', int: 0 }])
}

/**
 * Additive attention bias [batch, 1, seq, past + seq], 0 or MASKED_SCORE: query i sits at absolute
 * position past + i (past = mask length − seq) and sees key j when j ≤ past + i and
 * attention_mask[b, j] is nonzero.
 */
export function attentionBias(g: GraphBuilder, inputIds: string, attentionMask: string): string {
  const total = dimOf(g, attentionMask, 1)
  const past = g.op('Sub', [total, dimOf(g, inputIds, 1)])
  const one = g.int64([1], true)
  const queryAt = g.op('Unsqueeze', [g.op('Range', [past, total, one]), g.int64([1])])
  const keyAt = g.op('Range', [g.int64([0], true), total, one])
  const causal = g.op('LessOrEqual', [keyAt, queryAt])
  const kept = g.op('Unsqueeze', [
    g.op('Cast', [attentionMask], [{ name: 'to', int: BOOL }]),
    g.int64([1, 2]),
  ])
  return g.op('Where', [g.op('And', [causal, kept]), g.float(0), g.float(MASKED_SCORE)])
}

/**
 * cos and sin of position·θ^(−2i/hd) for every position < maxSeqLen and i < hd/2, row-major
 * [maxSeqLen, hd/2], computed in float64 like forward-f64.ts and rounded once to float32.
 */
export function ropeTables(config: ModelConfig): { cos: Float32Array; sin: Float32Array } {
  const hd = headDim(config)
  const half = hd / 2
  const cos = new Float32Array(config.maxSeqLen * half)
  const sin = new Float32Array(config.maxSeqLen * half)
  for (let pos = 0; pos < config.maxSeqLen; pos++)
    for (let i = 0; i < half; i++) {
      const angle = pos * config.ropeTheta ** (-(2 * i) / hd)
      cos[pos * half + i] = Math.cos(angle)
      sin[pos * half + i] = Math.sin(angle)
    }
  return { cos, sin }
}

/**
 * Stores the RoPE tables as initializers, gathers them once by position_ids, and returns the
 * rotate-half rotation of a [batch, n, seq, hd] tensor: (a, b) → (a·cos − b·sin, b·cos + a·sin).
 */
export function rotary(g: GraphBuilder, config: ModelConfig, positionIds: string): (x: string) => string {
  const tables = ropeTables(config)
  const dims = [config.maxSeqLen, headDim(config) / 2]
  // [batch, seq, hd/2] → [batch, 1, seq, hd/2], broadcast over heads
  const at = (name: string, table: Float32Array) =>
    g.op('Unsqueeze', [
      g.op('Gather', [g.initializer(name, dims, table), positionIds], [{ name: 'axis', int: 0 }]),
      g.int64([1]),
    ])
  const cos = at('rope.cos', tables.cos)
  const sin = at('rope.sin', tables.sin)
  return (x) => {
    const [a, b] = g.opN('Split', [x], g.freshNames('half', 2), [{ name: 'axis', int: 3 }]) as [
      string,
      string,
    ]
    const first = g.op('Sub', [g.op('Mul', [a, cos]), g.op('Mul', [b, sin])])
    const second = g.op('Add', [g.op('Mul', [b, cos]), g.op('Mul', [a, sin])])
    return g.op('Concat', [first, second], [{ name: 'axis', int: 3 }])
  }
}

/** [batch, seq, n·hd] → [batch, n, seq, hd]. */
export function splitHeads(g: GraphBuilder, x: string, n: number, hd: number): string {
  const heads = g.op('Reshape', [x, g.int64([0, 0, n, hd])])
  return g.op('Transpose', [heads], [{ name: 'perm', ints: [0, 2, 1, 3] }])
}

/** [batch, n, seq, hd] → [batch, seq, n·hd]. */
export function mergeHeads(g: GraphBuilder, x: string, n: number, hd: number): string {
  const seqFirst = g.op('Transpose', [x], [{ name: 'perm', ints: [0, 2, 1, 3] }])
  return g.op('Reshape', [seqFirst, g.int64([0, 0, n * hd])])
}

/**
 * Grouped-query attention's key/value sharing, [batch, kvHeads, len, hd] → [batch, heads, len, hd]:
 * kv head j serves query heads j·group … j·group + group − 1 (group = heads / kvHeads).
 */
export function repeatKv(g: GraphBuilder, x: string, config: ModelConfig): string {
  const group = config.heads / config.kvHeads
  if (group === 1) return x
  const grouped = g.op('Expand', [g.op('Unsqueeze', [x, g.int64([2])]), g.int64([1, 1, group, 1, 1])])
  return g.op('Reshape', [grouped, g.int64([0, config.heads, -1, headDim(config)])])
}
