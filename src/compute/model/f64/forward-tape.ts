// The training forward of one sequence: the function forwardF64 computes (RMSNorm, RoPE with
// position = row, causal GQA attention, SwiGLU, tied or separate output head), keeping every
// intermediate the backward pass needs. Logits are computed only for the last rows, the ones the loss
// reads (the answer follows the prompt); the last layer runs its queries, attention output and MLP on
// those rows alone, since no other row's output is read.
import { headDim, type ModelConfig } from '../config.ts'
import { layerParamName } from '../layout.ts'
import { attentionForward, type AttentionDims } from './causal-attention.ts'
import { linearForward, rmsNormForward, ropeAngles, ropeInPlace, type RopeAngles } from './dense.ts'

/** Rows 0 … s − 1 for x, xn, k, v; rows queryFrom … s − 1 for everything from q on. */
export interface LayerTape {
  readonly queryFrom: number
  readonly x: Float64Array
  readonly inv1: Float64Array
  readonly xn: Float64Array
  readonly q: Float64Array
  readonly k: Float64Array
  readonly v: Float64Array
  readonly probs: Float64Array
  readonly o: Float64Array
  readonly h1: Float64Array
  readonly inv2: Float64Array
  readonly xn2: Float64Array
  readonly gate: Float64Array
  readonly up: Float64Array
  readonly act: Float64Array
}

export interface Tape {
  readonly ids: ArrayLike<number>
  readonly angles: RopeAngles
  readonly layers: readonly LayerTape[]
  /** The final residual stream of the last rows, its norm scale, and its normed value. */
  readonly xLast: Float64Array
  readonly invF: Float64Array
  readonly hn: Float64Array
}

export type ParamViews = ReadonlyMap<string, Float64Array>

export function view(params: ParamViews, name: string): Float64Array {
  const t = params.get(name)
  if (!t) throw new RangeError(`missing parameter ${name}`)
  return t
}

export function outputHead(config: ModelConfig): string {
  return config.tiedEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight'
}

export function attentionDims(config: ModelConfig, rows: number, past: number): AttentionDims {
  return { rows, past, heads: config.heads, kvHeads: config.kvHeads, hd: headDim(config) }
}

/** Keys and values of the positions seen so far, per layer: [maxSeqLen × kvHeads × hd] each. */
export interface KvCache {
  readonly k: Float64Array[]
  readonly v: Float64Array[]
  length: number
}

export function kvCache(config: ModelConfig): KvCache {
  const size = config.maxSeqLen * config.kvHeads * headDim(config)
  const make = () => Array.from({ length: config.layers }, () => new Float64Array(size))
  return { k: make(), v: make(), length: 0 }
}

/** silu(g)·u, the SwiGLU gate. */
export function swiglu(gate: Float64Array, up: Float64Array): Float64Array {
  const act = new Float64Array(gate.length)
  for (let i = 0; i < gate.length; i++) {
    const g = gate[i]!
    act[i] = (g / (1 + Math.exp(-g))) * up[i]!
  }
  return act
}

function addInto(a: Float64Array, b: Float64Array): Float64Array {
  const y = new Float64Array(a.length)
  for (let i = 0; i < a.length; i++) y[i] = a[i]! + b[i]!
  return y
}

/**
 * Runs the decoder layers on `ids` at positions past … past + ids.length − 1 (past = cache.length,
 * or 0 without a cache) and returns the final residual stream of the last `keep` rows and each
 * layer's tape. With a cache, attention also reads the cached positions and the new keys and values
 * are appended to it.
 */
export function runLayers(
  config: ModelConfig,
  params: ParamViews,
  ids: ArrayLike<number>,
  angles: RopeAngles,
  keep: number,
  cache?: KvCache,
): { x: Float64Array; layers: LayerTape[] } {
  const { dim: d, heads, kvHeads, ffnDim: f, vocabSize: vocab, normEps: eps } = config
  const hd = headDim(config)
  const s = ids.length
  const past = cache?.length ?? 0
  if (s === 0 || past + s > config.maxSeqLen)
    throw new RangeError(`sequence length ${past + s} is outside 1…${config.maxSeqLen} (maxSeqLen)`)
  if (!Number.isInteger(keep) || keep < 1 || keep > s)
    throw new RangeError(`the last ${keep} rows of a ${s}-token sequence cannot be kept`)
  const embed = view(params, 'model.embed_tokens.weight')
  let x: Float64Array = new Float64Array(s * d)
  for (let r = 0; r < s; r++) {
    const id = ids[r]!
    if (!Number.isInteger(id) || id < 0 || id >= vocab)
      throw new RangeError(`token id ${id} is outside the vocabulary`)
    x.set(embed.subarray(id * d, (id + 1) * d), r * d)
  }
  const layers: LayerTape[] = []
  const kvWidth = kvHeads * hd
  for (let l = 0; l < config.layers; l++) {
    const w = (part: string) => view(params, layerParamName(l, part))
    // Query rows: all of them, except in the last layer where only the kept rows are read on.
    const rows = l === config.layers - 1 ? keep : s
    const queryFrom = s - rows
    const { y: xn, inv: inv1 } = rmsNormForward(x, w('input_layernorm'), s, d, eps)
    const q = linearForward(xn.subarray(queryFrom * d), w('self_attn.q_proj'), rows, d, heads * hd)
    const k = linearForward(xn, w('self_attn.k_proj'), s, d, kvWidth)
    const v = linearForward(xn, w('self_attn.v_proj'), s, d, kvWidth)
    ropeInPlace(q, rows, heads, angles, false, past + queryFrom)
    ropeInPlace(k, s, kvHeads, angles, false, past)
    let keys = k
    let values = v
    if (cache) {
      cache.k[l]!.set(k, past * kvWidth)
      cache.v[l]!.set(v, past * kvWidth)
      keys = cache.k[l]!.subarray(0, (past + s) * kvWidth)
      values = cache.v[l]!.subarray(0, (past + s) * kvWidth)
    }
    const { o, probs } = attentionForward(q, keys, values, attentionDims(config, rows, past + queryFrom))
    const h1 = addInto(
      x.subarray(queryFrom * d),
      linearForward(o, w('self_attn.o_proj'), rows, heads * hd, d),
    )
    const { y: xn2, inv: inv2 } = rmsNormForward(h1, w('post_attention_layernorm'), rows, d, eps)
    const gate = linearForward(xn2, w('mlp.gate_proj'), rows, d, f)
    const up = linearForward(xn2, w('mlp.up_proj'), rows, d, f)
    const act = swiglu(gate, up)
    layers.push({ queryFrom, x, inv1, xn, q, k, v, probs, o, h1, inv2, xn2, gate, up, act })
    x = addInto(h1, linearForward(act, w('mlp.down_proj'), rows, f, d))
  }
  if (cache) cache.length = past + s
  return { x, layers }
}

/** Final norm and output head on every row of the residual stream x. */
export function headForward(
  config: ModelConfig,
  params: ParamViews,
  x: Float64Array,
): { logits: Float64Array; invF: Float64Array; hn: Float64Array } {
  const d = config.dim
  const rows = x.length / d
  const { y: hn, inv: invF } = rmsNormForward(x, view(params, 'model.norm.weight'), rows, d, config.normEps)
  const logits = linearForward(hn, view(params, outputHead(config)), rows, d, config.vocabSize)
  return { logits, invF, hn }
}

/** Logits [lastRows × vocab] of the last rows of token sequence `ids` (positions from 0), and the tape. */
export function forwardTape(
  config: ModelConfig,
  params: ParamViews,
  ids: ArrayLike<number>,
  lastRows: number,
): { logits: Float64Array; tape: Tape } {
  const angles = ropeAngles(Math.min(ids.length, config.maxSeqLen), headDim(config), config.ropeTheta)
  const { x, layers } = runLayers(config, params, ids, angles, lastRows)
  const { logits, invF, hn } = headForward(config, params, x)
  return { logits, tape: { ids, angles, layers, xLast: x, invF, hn } }
}
