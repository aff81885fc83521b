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
  if (batch.ids.length !== batch.batch * batch.seqLen)
    throw new RangeError('forward: ids must hold batch·seqLen tokens')
  if (pastLength + batch.seqLen > config.maxSeqLen)
    throw new RangeError(
      `forward: ${pastLength + batch.seqLen} positions exceed maxSeqLen ${config.maxSeqLen}`,
    )
  const positions = Int32Array.from(batch.ids, (_, i) => pastLength + (i % batch.seqLen))
  const table = ropeTableFor(config)
  const shape = attentionShape(config, batch, pastLength)
  const kv: { k: QTensor; v: QTensor }[] = []
  const w = (l: number, part: string) => param(params, layerParamName(l, part))
  // records each op's output under its name and passes it on; names only matter when tracing
  const traced = (name: string, t: QTensor): QTensor => {
    trace?.(name, t)
    return t
  }
  const embedded = traced(
    'embed',
    yield* op('embeddingGather', param(params, 'model.embed_tokens.weight'), batch.ids),
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
    const cached = past?.layers[l]
    const k = cached ? appendRows(cached.k, kNew, batch.batch) : kNew
    const v = cached ? appendRows(cached.v, vNew, batch.batch) : vNew
    kv.push({ k, v })
    const o = at('attention', yield* op('attention', q, k, v, shape))
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
  return {
    logits,
    cache: { batch, pastLength, positions, layers, hFinal: h, hn },
    kv: { length: pastLength + batch.seqLen, layers: kv },
  }
}

/** `forwardProgram` on the TS twin. */
export const forward = onTwin(forwardProgram)
