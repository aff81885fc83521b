import type { QTensor } from '../kernels/ref/tensor.ts'
import type { ModelConfig } from './config.ts'
import { attentionShape, outputWeight, ropeTableFor, type ForwardCache } from './forward.ts'
import { layerParamName } from './layout.ts'
import { linearBackward, type LinearGrads } from './linear.ts'
import { param, type Params } from './params.ts'
import { op, type Program } from './program.ts'
import type { TraceHook } from './trace-hook.ts'
import { onTwin } from './twin-ops.ts'

// The traced outputs of each multi-output backward op, in trace order.
const LINEAR = ['dx', 'dw'] as const
const NORM = ['dx', 'dWeight'] as const
const SWIGLU = ['dGate', 'dUp'] as const
const ATTENTION = ['dq', 'dk', 'dv'] as const

/**
 * Gradients of every parameter given d loss / d logits, as a program: the backward ops in the reverse
 * order of `forwardProgram`. Gradient exponents come from each op's bound (operand maxima), so none
 * saturates; keys follow the parameter layout. `trace` sees every op's outputs in execution order.
 */
export function* backwardProgram(
  config: ModelConfig,
  params: Params,
  cache: ForwardCache,
  dLogits: QTensor,
  trace?: TraceHook,
): Program<Map<string, QTensor>> {
  if (cache.pastLength !== 0) throw new RangeError('backward needs a forward pass without a KV cache')
  const grads = new Map<string, QTensor>()
  const w = (l: number, part: string) => param(params, layerParamName(l, part))
  const put = (l: number, part: string, g: QTensor) => grads.set(layerParamName(l, part), g)
  const table = ropeTableFor(config)
  const shape = attentionShape(config, cache.batch)
  const { positions } = cache
  // a backward op has several outputs; each is recorded as `<op>.<output>`, in the order listed
  const traced = <T extends Readonly<Record<K, QTensor>>, K extends string>(
    name: string,
    outputs: T,
    keys: readonly K[],
  ): T => {
    if (trace) for (const key of keys) trace(`${name}.${key}`, outputs[key])
    return outputs
  }
  const one = (name: string, t: QTensor): QTensor => {
    trace?.(name, t)
    return t
  }

  const head = traced(
    'lm_head',
    yield* linearBackward(cache.hn, outputWeight(config, params), dLogits),
    LINEAR,
  )
  const normW = param(params, 'model.norm.weight')
  const norm = traced(
    'norm',
    yield* op('rmsNormBackward', cache.hFinal, normW, config.normEps, head.dx),
    NORM,
  )
  grads.set('model.norm.weight', norm.dWeight)
  let dh = norm.dx
  for (let l = config.layers - 1; l >= 0; l--) {
    const c = cache.layers[l]!
    const at = `layers.${l}.`
    const lin = function* (x: QTensor, part: string, dy: QTensor): Program<LinearGrads> {
      return traced(at + part, yield* linearBackward(x, w(l, part), dy), LINEAR)
    }
    const normBackward = function* (x: QTensor, part: string, dy: QTensor) {
      return traced(at + part, yield* op('rmsNormBackward', x, w(l, part), config.normEps, dy), NORM)
    }
    // MLP branch: h = hMid + down(swiglu(gate(xn2), up(xn2)))
    const down = yield* lin(c.act, 'mlp.down_proj', dh)
    put(l, 'mlp.down_proj', down.dw)
    const sw = traced(at + 'swiglu', yield* op('swigluBackward', c.gate, c.up, down.dx), SWIGLU)
    const gate = yield* lin(c.xn2, 'mlp.gate_proj', sw.dGate)
    const up = yield* lin(c.xn2, 'mlp.up_proj', sw.dUp)
    put(l, 'mlp.gate_proj', gate.dw)
    put(l, 'mlp.up_proj', up.dw)
    const dxn2 = one(at + 'mlp.dx_sum', yield* op('add', gate.dx, up.dx))
    const post = yield* normBackward(c.hMid, 'post_attention_layernorm', dxn2)
    put(l, 'post_attention_layernorm', post.dWeight)
    dh = one(at + 'attn_residual', yield* op('add', dh, post.dx))
    // attention branch: hMid = hIn + o_proj(attention(rope(q), rope(k), v))
    const out = yield* lin(c.o, 'self_attn.o_proj', dh)
    put(l, 'self_attn.o_proj', out.dw)
    const att = traced(
      at + 'attention',
      yield* op('attentionBackward', c.q, c.k, c.v, out.dx, shape),
      ATTENTION,
    )
    const unrope = function* (name: string, g: QTensor): Program<QTensor> {
      return one(at + name, yield* op('rope', g, positions, table, true))
    }
    const q = yield* lin(c.xn, 'self_attn.q_proj', yield* unrope('q_rope', att.dq))
    const k = yield* lin(c.xn, 'self_attn.k_proj', yield* unrope('k_rope', att.dk))
    const v = yield* lin(c.xn, 'self_attn.v_proj', att.dv)
    put(l, 'self_attn.q_proj', q.dw)
    put(l, 'self_attn.k_proj', k.dw)
    put(l, 'self_attn.v_proj', v.dw)
    const dqk = one(at + 'qk.dx_sum', yield* op('add', q.dx, k.dx))
    const dxn = one(at + 'qkv.dx_sum', yield* op('add', dqk, v.dx))
    const pre = yield* normBackward(c.hIn, 'input_layernorm', dxn)
    put(l, 'input_layernorm', pre.dWeight)
    dh = one(at + 'input_residual', yield* op('add', dh, pre.dx))
  }
  const dEmbed = one('embed', yield* op('embeddingScatterAdd', dh, cache.batch.ids, config.vocabSize))
  if (config.tiedEmbeddings)
    grads.set('model.embed_tokens.weight', one('embed.tied_sum', yield* op('add', dEmbed, head.dw)))
  else {
    grads.set('model.embed_tokens.weight', dEmbed)
    grads.set('lm_head.weight', head.dw)
  }
  return grads
}

/** `backwardProgram` on the TS twin. */
export const backward = onTwin(backwardProgram)
