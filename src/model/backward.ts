import { add } from '../kernels/ref/elementwise.ts'
import { attentionBackward } from '../kernels/ref/attention.ts'
import { embeddingScatterAdd } from '../kernels/ref/embedding.ts'
import { rmsNormBackward } from '../kernels/ref/rmsnorm.ts'
import { rope } from '../kernels/ref/rope.ts'
import { swigluBackward } from '../kernels/ref/silu.ts'
import type { QTensor } from '../kernels/ref/tensor.ts'
import type { ModelConfig } from './config.ts'
import { attentionShape, outputWeight, ropeTableFor, type ForwardCache } from './forward.ts'
import { layerParamName } from './layout.ts'
import { linearBackward } from './linear.ts'
import { param, type Params } from './params.ts'
import type { TraceHook } from './trace-hook.ts'

// The traced outputs of each multi-output backward op, in trace order.
const LINEAR = ['dx', 'dw'] as const
const NORM = ['dx', 'dWeight'] as const
const SWIGLU = ['dGate', 'dUp'] as const
const ATTENTION = ['dq', 'dk', 'dv'] as const

/**
 * Gradients of every parameter given d loss / d logits, composed from the TS-twin backward ops in
 * the reverse order of `forward`. Gradient exponents come from each op's bound (operand maxima), so
 * none saturates; keys follow the parameter layout. `trace` sees every op's outputs in execution order.
 */
export function backward(
  config: ModelConfig,
  params: Params,
  cache: ForwardCache,
  dLogits: QTensor,
  trace?: TraceHook,
): Map<string, QTensor> {
  if (cache.pastLength !== 0) throw new RangeError('backward needs a forward pass without a KV cache')
  const grads = new Map<string, QTensor>()
  const w = (l: number, part: string) => param(params, layerParamName(l, part))
  const put = (l: number, part: string, g: QTensor) => grads.set(layerParamName(l, part), g)
  const table = ropeTableFor(config)
  const shape = attentionShape(config, cache.batch)
  const { positions } = cache
  // a backward op has several outputs; each is recorded as `<op>.<output>`, in the order listed
  const op = <T extends Readonly<Record<K, QTensor>>, K extends string>(
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

  const head = op('lm_head', linearBackward(cache.hn, outputWeight(config, params), dLogits), LINEAR)
  const normW = param(params, 'model.norm.weight')
  const norm = op('norm', rmsNormBackward(cache.hFinal, normW, config.normEps, head.dx), NORM)
  grads.set('model.norm.weight', norm.dWeight)
  let dh = norm.dx
  for (let l = config.layers - 1; l >= 0; l--) {
    const c = cache.layers[l]!
    const at = `layers.${l}.`
    const lin = (x: QTensor, part: string, dy: QTensor) =>
      op(at + part, linearBackward(x, w(l, part), dy), LINEAR)
    // MLP branch: h = hMid + down(swiglu(gate(xn2), up(xn2)))
    const down = lin(c.act, 'mlp.down_proj', dh)
    put(l, 'mlp.down_proj', down.dw)
    const sw = op(at + 'swiglu', swigluBackward(c.gate, c.up, down.dx), SWIGLU)
    const gate = lin(c.xn2, 'mlp.gate_proj', sw.dGate)
    const up = lin(c.xn2, 'mlp.up_proj', sw.dUp)
    put(l, 'mlp.gate_proj', gate.dw)
    put(l, 'mlp.up_proj', up.dw)
    const dxn2 = one(at + 'mlp.dx_sum', add(gate.dx, up.dx))
    const postW = w(l, 'post_attention_layernorm')
    const post = op(
      at + 'post_attention_layernorm',
      rmsNormBackward(c.hMid, postW, config.normEps, dxn2),
      NORM,
    )
    put(l, 'post_attention_layernorm', post.dWeight)
    dh = one(at + 'attn_residual', add(dh, post.dx))
    // attention branch: hMid = hIn + o_proj(attention(rope(q), rope(k), v))
    const out = lin(c.o, 'self_attn.o_proj', dh)
    put(l, 'self_attn.o_proj', out.dw)
    const att = op(at + 'attention', attentionBackward(c.q, c.k, c.v, out.dx, shape), ATTENTION)
    const q = lin(c.xn, 'self_attn.q_proj', one(at + 'q_rope', rope(att.dq, positions, table, true)))
    const k = lin(c.xn, 'self_attn.k_proj', one(at + 'k_rope', rope(att.dk, positions, table, true)))
    const v = lin(c.xn, 'self_attn.v_proj', att.dv)
    put(l, 'self_attn.q_proj', q.dw)
    put(l, 'self_attn.k_proj', k.dw)
    put(l, 'self_attn.v_proj', v.dw)
    const dxn = one(at + 'qkv.dx_sum', add(one(at + 'qk.dx_sum', add(q.dx, k.dx)), v.dx))
    const pre = op(
      at + 'input_layernorm',
      rmsNormBackward(c.hIn, w(l, 'input_layernorm'), config.normEps, dxn),
      NORM,
    )
    put(l, 'input_layernorm', pre.dWeight)
    dh = one(at + 'input_residual', add(dh, pre.dx))
  }
  const dEmbed = one('embed', embeddingScatterAdd(dh, cache.batch.ids, config.vocabSize))
  if (config.tiedEmbeddings)
    grads.set('model.embed_tokens.weight', one('embed.tied_sum', add(dEmbed, head.dw)))
  else {
    grads.set('model.embed_tokens.weight', dEmbed)
    grads.set('lm_head.weight', head.dw)
  }
  return grads
}
