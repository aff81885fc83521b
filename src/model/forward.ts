import { add, requantize } from '../kernels/ref/elementwise.ts'
import { attention, type AttentionShape } from '../kernels/ref/attention.ts'
import { embeddingGather } from '../kernels/ref/embedding.ts'
import { rmsNorm } from '../kernels/ref/rmsnorm.ts'
import { rope } from '../kernels/ref/rope.ts'
import { ropeTable, type RopeTable } from '../kernels/ref/rope-table.ts'
import { swiglu } from '../kernels/ref/silu.ts'
import { qtensor, type QTensor } from '../kernels/ref/tensor.ts'
import { headDim, type ModelConfig } from './config.ts'
import { ACT_EXP, LOGIT_EXP, RESIDUAL_EXP } from './formats.ts'
import { layerParamName } from './layout.ts'
import { linear } from './linear.ts'
import { param, type Params } from './params.ts'
import type { TraceHook } from './trace-hook.ts'

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
 * The reproducible forward pass: logits for every position, composed only of TS-twin ops. With a
 * KV cache the batch continues those sequences; every format is row-local, so the logits are the
 * same bits as the matching rows of one full pass. `trace` sees every op's output in execution order.
 */
export function forward(
  config: ModelConfig,
  params: Params,
  batch: Batch,
  past?: KvCache,
  trace?: TraceHook,
): ForwardResult {
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
  const op = (name: string, t: QTensor): QTensor => {
    trace?.(name, t)
    return t
  }
  const embedded = op('embed', embeddingGather(param(params, 'model.embed_tokens.weight'), batch.ids))
  let h = op('embed.requantize', requantize(embedded, RESIDUAL_EXP))
  const layers: LayerCache[] = []
  for (let l = 0; l < config.layers; l++) {
    const at = (name: string, t: QTensor) => op(`layers.${l}.${name}`, t)
    const proj = (x: QTensor, part: string) => at(part, linear(x, w(l, part), ACT_EXP))
    const hIn = h
    const xn = at('input_layernorm', rmsNorm(hIn, w(l, 'input_layernorm'), config.normEps, ACT_EXP))
    const q = at('q_rope', rope(proj(xn, 'self_attn.q_proj'), positions, table))
    const kNew = at('k_rope', rope(proj(xn, 'self_attn.k_proj'), positions, table))
    const vNew = proj(xn, 'self_attn.v_proj')
    const cached = past?.layers[l]
    const k = cached ? appendRows(cached.k, kNew, batch.batch) : kNew
    const v = cached ? appendRows(cached.v, vNew, batch.batch) : vNew
    kv.push({ k, v })
    const o = at('attention', attention(q, k, v, shape))
    const hMid = at('attn_residual', add(hIn, proj(o, 'self_attn.o_proj'), RESIDUAL_EXP))
    const xn2 = at(
      'post_attention_layernorm',
      rmsNorm(hMid, w(l, 'post_attention_layernorm'), config.normEps, ACT_EXP),
    )
    const gate = proj(xn2, 'mlp.gate_proj')
    const up = proj(xn2, 'mlp.up_proj')
    const act = at('swiglu', swiglu(gate, up, ACT_EXP))
    h = at('mlp_residual', add(hMid, proj(act, 'mlp.down_proj'), RESIDUAL_EXP))
    layers.push({ hIn, xn, q, k, v, o, hMid, xn2, gate, up, act })
  }
  const hn = op('norm', rmsNorm(h, param(params, 'model.norm.weight'), config.normEps, ACT_EXP))
  const logits = op('lm_head', linear(hn, outputWeight(config, params), LOGIT_EXP))
  return {
    logits,
    cache: { batch, pastLength, positions, layers, hFinal: h, hn },
    kv: { length: pastLength + batch.seqLen, layers: kv },
  }
}
