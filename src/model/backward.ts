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

/**
 * Gradients of every parameter given d loss / d logits, composed from the TS-twin backward ops in
 * the reverse order of `forward`. Gradient exponents come from each op's bound (operand maxima), so
 * none saturates; keys follow the parameter layout.
 */
export function backward(
  config: ModelConfig,
  params: Params,
  cache: ForwardCache,
  dLogits: QTensor,
): Map<string, QTensor> {
  if (cache.pastLength !== 0) throw new RangeError('backward needs a forward pass without a KV cache')
  const grads = new Map<string, QTensor>()
  const w = (l: number, part: string) => param(params, layerParamName(l, part))
  const put = (l: number, part: string, g: QTensor) => grads.set(layerParamName(l, part), g)
  const table = ropeTableFor(config)
  const shape = attentionShape(config, cache.batch)
  const { positions } = cache

  const head = linearBackward(cache.hn, outputWeight(config, params), dLogits)
  const norm = rmsNormBackward(cache.hFinal, param(params, 'model.norm.weight'), config.normEps, head.dx)
  grads.set('model.norm.weight', norm.dWeight)
  let dh = norm.dx
  for (let l = config.layers - 1; l >= 0; l--) {
    const c = cache.layers[l]!
    // MLP branch: h = hMid + down(swiglu(gate(xn2), up(xn2)))
    const down = linearBackward(c.act, w(l, 'mlp.down_proj'), dh)
    put(l, 'mlp.down_proj', down.dw)
    const sw = swigluBackward(c.gate, c.up, down.dx)
    const gate = linearBackward(c.xn2, w(l, 'mlp.gate_proj'), sw.dGate)
    const up = linearBackward(c.xn2, w(l, 'mlp.up_proj'), sw.dUp)
    put(l, 'mlp.gate_proj', gate.dw)
    put(l, 'mlp.up_proj', up.dw)
    const post = rmsNormBackward(
      c.hMid,
      w(l, 'post_attention_layernorm'),
      config.normEps,
      add(gate.dx, up.dx),
    )
    put(l, 'post_attention_layernorm', post.dWeight)
    dh = add(dh, post.dx)
    // attention branch: hMid = hIn + o_proj(attention(rope(q), rope(k), v))
    const out = linearBackward(c.o, w(l, 'self_attn.o_proj'), dh)
    put(l, 'self_attn.o_proj', out.dw)
    const att = attentionBackward(c.q, c.k, c.v, out.dx, shape)
    const q = linearBackward(c.xn, w(l, 'self_attn.q_proj'), rope(att.dq, positions, table, true))
    const k = linearBackward(c.xn, w(l, 'self_attn.k_proj'), rope(att.dk, positions, table, true))
    const v = linearBackward(c.xn, w(l, 'self_attn.v_proj'), att.dv)
    put(l, 'self_attn.q_proj', q.dw)
    put(l, 'self_attn.k_proj', k.dw)
    put(l, 'self_attn.v_proj', v.dw)
    const pre = rmsNormBackward(c.hIn, w(l, 'input_layernorm'), config.normEps, add(add(q.dx, k.dx), v.dx))
    put(l, 'input_layernorm', pre.dWeight)
    dh = add(dh, pre.dx)
  }
  const dEmbed = embeddingScatterAdd(dh, cache.batch.ids, config.vocabSize)
  if (config.tiedEmbeddings) grads.set('model.embed_tokens.weight', add(dEmbed, head.dw))
  else {
    grads.set('model.embed_tokens.weight', dEmbed)
    grads.set('lm_head.weight', head.dw)
  }
  return grads
}
