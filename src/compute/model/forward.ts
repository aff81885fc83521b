import type { AttentionShape } from '../kernels/ref/attention.ts'
import { ropeTable, type RopeTable } from '../kernels/ref/rope-table.ts'
import { qtensor, type QTensor } from '../kernels/ref/tensor.ts'
import { headDim, type ModelConfig } from './config.ts'
import { ACT_EXP, LOGIT_EXP, RESIDUAL_EXP } from './formats.ts'
import { layerParamName } from './layout.ts'
import { linear } from './linear.ts'
import { param, type Params } from './params.ts'
import { op, type Program } from './program.ts'
import type { TraceHook } from './trace-hook.ts'
import { onTwin } from './twin-ops.ts'

/** Token ids of `batch` sequences of `seqLen` tokens each, row-major. */
export interface Batch {
  readonly ids: Int32Array
  readonly batch: number
  readonly seqLen: number
}

/** What the backward pass needs from one layer. */
export interface LayerCache {
  readonly hIn: QTensor
  readonly xn: QTensor
  readonly q: QTensor
  readonly k: QTensor
  readonly v: QTensor
  readonly o: QTensor
  readonly hMid: QTensor
  readonly xn2: QTensor
  readonly gate: QTensor
  readonly up: QTensor
  readonly act: QTensor
}

export interface ForwardCache {
  readonly batch: Batch
  /** Positions already in the KV cache when this pass ran (0 for training). */
  readonly pastLength: number
  readonly positions: Int32Array
  readonly layers: LayerCache[]
  readonly hFinal: QTensor
  readonly hn: QTensor
}

/** Post-RoPE keys and values per layer, [batch·length, kvHeads·headDim], for incremental decoding. */
export interface KvCache {
  readonly length: number
  readonly layers: readonly { readonly k: QTensor; readonly v: QTensor }[]
}

export interface ForwardResult {
  /** [batch·seqLen, vocab] at LOGIT_EXP. */
  readonly logits: QTensor
  readonly cache: ForwardCache
  /** Keys and values of every position seen so far (past + this batch). */
  readonly kv: KvCache
}

/** Per-sequence concatenation of [batch·n1, c] and [batch·n2, c] rows into [batch·(n1+n2), c]. */
function appendRows(past: QTensor, next: QTensor, batch: number): QTensor {
  if (past.exp !== next.exp) throw new RangeError('KV cache and new keys must share an exponent')
  const c = next.shape[1]!
  const [n1, n2] = [past.shape[0]! / batch, next.shape[0]! / batch]
  const out = qtensor([batch * (n1 + n2), c], next.exp)
  for (let b = 0; b < batch; b++) {
    out.data.set(past.data.subarray(b * n1 * c, (b + 1) * n1 * c), b * (n1 + n2) * c)
    out.data.set(next.data.subarray(b * n2 * c, (b + 1) * n2 * c), (b * (n1 + n2) + n1) * c)
  }
  return out
}

/** A layer's keys and values once a batch's new rows are in: the cache's rows extended, or the new rows alone. */
function extended(
  cached: KvCache['layers'][number] | undefined,
  kNew: QTensor,
  vNew: QTensor,
  batch: number,
): { k: QTensor; v: QTensor } {
  if (!cached) return { k: kNew, v: vNew }
  return { k: appendRows(cached.k, kNew, batch), v: appendRows(cached.v, vNew, batch) }
}

const tables = new Map<string, RopeTable>()

/** RoPE tables depend only on the config; built once (bigint maths) and reused. */
export function ropeTableFor(config: ModelConfig): RopeTable {
  const key = `${headDim(config)}/${config.maxSeqLen}/${config.ropeTheta}`
  let table = tables.get(key)
  if (!table) {
    table = ropeTable(headDim(config), config.maxSeqLen, config.ropeTheta)
    tables.set(key, table)
  }
  return table
}

export function attentionShape(config: ModelConfig, batch: Batch, pastLength = 0): AttentionShape {
  return {
    batch: batch.batch,
    seqLen: pastLength + batch.seqLen,
    queryLen: batch.seqLen,
    heads: config.heads,
    kvHeads: config.kvHeads,
    headDim: headDim(config),
  }
}

export function outputWeight(config: ModelConfig, params: Params): QTensor {
  return param(params, config.tiedEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight')
}

/** One layer's attention: the output for the pass's rows, and the layer's keys and values after it. */
type Attend = (
  layer: number,
  q: QTensor,
  kNew: QTensor,
  vNew: QTensor,
) => Program<{ o: QTensor; k: QTensor; v: QTensor }>

/** Every layer and the head over token rows `ids` at `positions`; attention is the caller's. */
function* layersProgram(
  config: ModelConfig,
  params: Params,
  ids: Int32Array,
  positions: Int32Array,
  attend: Attend,
  trace?: TraceHook,
): Program<{ logits: QTensor; layers: LayerCache[]; hFinal: QTensor; hn: QTensor }> {
  const table = ropeTableFor(config)
  const w = (l: number, part: string) => param(params, layerParamName(l, part))
  // records each op's output under its name and passes it on; names only matter when tracing
  const traced = (name: string, t: QTensor): QTensor => {
    trace?.(name, t)
    return t
  }
  const embedded = traced(
    'embed',
    yield* op('embeddingGather', param(params, 'model.embed_tokens.weight'), ids),
  )
  let h = traced('embed.requantize', yield* op('requantize', embedded, RESIDUAL_EXP))
  const layers: LayerCache[] = []
  for (let l = 0; l < config.layers; l++) {
    const at = (name: string, t: QTensor) => traced(`layers.${l}.${name}`, t)
    const proj = function* (x: QTensor, part: string): Program<QTensor> {
      return at(part, yield* linear(x, w(l, part), ACT_EXP))
    }
    const norm = (x: QTensor, part: string) => op('rmsNorm', x, w(l, part), config.normEps, ACT_EXP)
    const hIn = h
    const xn = at('input_layernorm', yield* norm(hIn, 'input_layernorm'))
    const q = at('q_rope', yield* op('rope', yield* proj(xn, 'self_attn.q_proj'), positions, table))
    const kNew = at('k_rope', yield* op('rope', yield* proj(xn, 'self_attn.k_proj'), positions, table))
    const vNew = yield* proj(xn, 'self_attn.v_proj')
    const { o: attended, k, v } = yield* attend(l, q, kNew, vNew)
    const o = at('attention', attended)
    const hMid = at('attn_residual', yield* op('add', hIn, yield* proj(o, 'self_attn.o_proj'), RESIDUAL_EXP))
    const xn2 = at('post_attention_layernorm', yield* norm(hMid, 'post_attention_layernorm'))
    const gate = yield* proj(xn2, 'mlp.gate_proj')
    const up = yield* proj(xn2, 'mlp.up_proj')
    const act = at('swiglu', yield* op('swiglu', gate, up, ACT_EXP))
    h = at('mlp_residual', yield* op('add', hMid, yield* proj(act, 'mlp.down_proj'), RESIDUAL_EXP))
    layers.push({ hIn, xn, q, k, v, o, hMid, xn2, gate, up, act })
  }
  const hn = traced(
    'norm',
    yield* op('rmsNorm', h, param(params, 'model.norm.weight'), config.normEps, ACT_EXP),
  )
  const logits = traced('lm_head', yield* linear(hn, outputWeight(config, params), LOGIT_EXP))
  return { logits, layers, hFinal: h, hn }
}

function checkedPositions(config: ModelConfig, batch: Batch, pastLength: number): Int32Array {
  if (batch.ids.length !== batch.batch * batch.seqLen)
    throw new RangeError('forward: ids must hold batch·seqLen tokens')
  if (pastLength + batch.seqLen > config.maxSeqLen)
    throw new RangeError(
      `forward: ${pastLength + batch.seqLen} positions exceed maxSeqLen ${config.maxSeqLen}`,
    )
  return Int32Array.from(batch.ids, (_, i) => pastLength + (i % batch.seqLen))
}

/**
 * The reproducible forward pass as a program: logits for every position. With a KV cache the batch
 * continues those sequences; every format is row-local, so the logits are the same bits as the
 * matching rows of one full pass. `trace` sees every op's output in execution order.
 */
export function* forwardProgram(
  config: ModelConfig,
  params: Params,
  batch: Batch,
  past?: KvCache,
  trace?: TraceHook,
): Program<ForwardResult> {
  const pastLength = past?.length ?? 0
  const positions = checkedPositions(config, batch, pastLength)
  const shape = attentionShape(config, batch, pastLength)
  const kv: { k: QTensor; v: QTensor }[] = []
  const attend: Attend = function* (l, q, kNew, vNew) {
    const { k, v } = extended(past?.layers[l], kNew, vNew, batch.batch)
    kv.push({ k, v })
    return { o: yield* op('attention', q, k, v, shape), k, v }
  }
  const { logits, layers, hFinal, hn } = yield* layersProgram(
    config,
    params,
    batch.ids,
    positions,
    attend,
    trace,
  )
  return {
    logits,
    cache: { batch, pastLength, positions, layers, hFinal, hn },
    kv: { length: pastLength + batch.seqLen, layers: kv },
  }
}

/** Sequences that one pass continues: a batch and the cache it extends (none for a prompt's prefill). */
export interface Segment {
  readonly batch: Batch
  readonly past?: KvCache
}

/** The rows [from, from + count) of a 2-D tensor, as a view. */
function rowsOf(t: QTensor, from: number, count: number): QTensor {
  const c = t.shape[1]!
  return qtensor([count, c], t.exp, t.data.subarray(from * c, (from + count) * c))
}

/**
 * `forwardProgram` over several segments in one pass (untraced, no backward cache): sequences of
 * different lengths and caches, e.g. the G rows of several prompts decoding side by side. Every op but
 * attention is row-wise and row-local, so it runs once over all rows; attention runs per segment on
 * that segment's rows and cache, as its own `forwardProgram` would. Each segment's logits (its rows of
 * `logits`, in segment order) and cache are the same bits as its own `forwardProgram`.
 */
export function* forwardSegmentsProgram(
  config: ModelConfig,
  params: Params,
  segments: readonly Segment[],
): Program<{ logits: QTensor; kv: KvCache[] }> {
  const positions = Int32Array.from(
    segments.flatMap((s) => [...checkedPositions(config, s.batch, s.past?.length ?? 0)]),
  )
  const ids = new Int32Array(positions.length)
  const starts: number[] = []
  for (let i = 0, at = 0; i < segments.length; at += segments[i]!.batch.ids.length, i++) {
    ids.set(segments[i]!.batch.ids, at)
    starts.push(at)
  }
  const kv = segments.map((): { k: QTensor; v: QTensor }[] => [])
  const attend: Attend = function* (l, q, kNew, vNew) {
    const parts: QTensor[] = []
    for (const [i, { batch, past }] of segments.entries()) {
      const rows = batch.ids.length
      const [kRows, vRows] = [rowsOf(kNew, starts[i]!, rows), rowsOf(vNew, starts[i]!, rows)]
      const { k, v } = extended(past?.layers[l], kRows, vRows, batch.batch)
      kv[i]!.push({ k, v })
      const shape = attentionShape(config, batch, past?.length ?? 0)
      parts.push(yield* op('attention', rowsOf(q, starts[i]!, rows), k, v, shape))
    }
    // every part has v's exponent, one fixed format (ACT_EXP) for every row
    const o = qtensor([ids.length, q.shape[1]!], parts[0]!.exp)
    parts.forEach((part, i) => o.data.set(part.data, starts[i]! * q.shape[1]!))
    // the caches are per segment (kept in kv); the layer record is dropped
    return { o, k: kNew, v: vNew }
  }
  const { logits } = yield* layersProgram(config, params, ids, positions, attend)
  return {
    logits,
    kv: segments.map((s, i) => ({ length: (s.past?.length ?? 0) + s.batch.seqLen, layers: kv[i]! })),
  }
}

/** `forwardProgram` on the TS twin. */
export const forward = onTwin(forwardProgram)

/** `forwardSegmentsProgram` on the TS twin. */
export const forwardSegments = onTwin(forwardSegmentsProgram)
