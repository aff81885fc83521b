// The backward of forwardTape: given d(loss)/d(logits) of its last rows, accumulates the gradient
// of every parameter (the tied embedding collects both its uses) into `grads`, laid out like params.
import { headDim, type ModelConfig } from '../config.ts'
import { layerParamName } from '../layout.ts'
import { attentionBackward } from './causal-attention.ts'
import { linearBackwardInput, linearBackwardWeight, rmsNormBackward, ropeInPlace } from './dense.ts'
import { attentionDims, outputHead, view, type ParamViews, type Tape } from './forward-tape.ts'

/** d(silu(g)·u)/dg and /du, given d(act). */
function swigluBackward(dAct: Float64Array, gate: Float64Array, up: Float64Array) {
  const dGate = new Float64Array(gate.length)
  const dUp = new Float64Array(gate.length)
  for (let i = 0; i < gate.length; i++) {
    const g = gate[i]!
    const sig = 1 / (1 + Math.exp(-g))
    dUp[i] = dAct[i]! * g * sig
    dGate[i] = dAct[i]! * up[i]! * sig * (1 + g * (1 - sig))
  }
  return { dGate, dUp }
}

export function backwardTape(
  config: ModelConfig,
  params: ParamViews,
  tape: Tape,
  dLogits: Float64Array,
  grads: ParamViews,
): void {
  const { dim: d, heads, kvHeads, ffnDim: f, vocabSize: vocab } = config
  const hd = headDim(config)
  const s = tape.ids.length
  const last = tape.xLast.length / d
  const head = outputHead(config)
  const dHn = new Float64Array(last * d)
  linearBackwardInput(dLogits, view(params, head), dHn, last, d, vocab)
  linearBackwardWeight(dLogits, tape.hn, view(grads, head), last, d, vocab)
  // dx is d(loss)/d(residual stream) above the current layer, on that layer's query rows.
  let dx = new Float64Array(last * d)
  const finalNorm = 'model.norm.weight'
  rmsNormBackward(dHn, tape.xLast, tape.invF, view(params, finalNorm), dx, view(grads, finalNorm), last, d)
  for (let l = config.layers - 1; l >= 0; l--) {
    const t = tape.layers[l]!
    const w = (part: string) => view(params, layerParamName(l, part))
    const g = (part: string) => view(grads, layerParamName(l, part))
    const from = t.queryFrom
    const rows = s - from
    // MLP: x_out = h1 + down(swiglu(gate(xn2), up(xn2))), on the query rows.
    const dAct = new Float64Array(rows * f)
    linearBackwardInput(dx, w('mlp.down_proj'), dAct, rows, f, d)
    linearBackwardWeight(dx, t.act, g('mlp.down_proj'), rows, f, d)
    const { dGate, dUp } = swigluBackward(dAct, t.gate, t.up)
    const dXn2 = new Float64Array(rows * d)
    linearBackwardInput(dGate, w('mlp.gate_proj'), dXn2, rows, d, f)
    linearBackwardInput(dUp, w('mlp.up_proj'), dXn2, rows, d, f)
    linearBackwardWeight(dGate, t.xn2, g('mlp.gate_proj'), rows, d, f)
    linearBackwardWeight(dUp, t.xn2, g('mlp.up_proj'), rows, d, f)
    const post = 'post_attention_layernorm'
    rmsNormBackward(dXn2, t.h1, t.inv2, w(post), dx, g(post), rows, d)
    const dH1 = dx
    // Attention: h1 = x + o_proj(attention(rope(q), rope(k), v)); keys and values cover every row.
    const dO = new Float64Array(rows * heads * hd)
    linearBackwardInput(dH1, w('self_attn.o_proj'), dO, rows, heads * hd, d)
    linearBackwardWeight(dH1, t.o, g('self_attn.o_proj'), rows, heads * hd, d)
    const dq = new Float64Array(rows * heads * hd)
    const dk = new Float64Array(s * kvHeads * hd)
    const dv = new Float64Array(s * kvHeads * hd)
    attentionBackward(dO, t.q, t.k, t.v, t.probs, attentionDims(config, rows, from), dq, dk, dv)
    ropeInPlace(dq, rows, heads, tape.angles, true, from)
    ropeInPlace(dk, s, kvHeads, tape.angles, true)
    const dXn = new Float64Array(s * d)
    const xnQuery = t.xn.subarray(from * d)
    linearBackwardInput(dq, w('self_attn.q_proj'), dXn.subarray(from * d), rows, d, heads * hd)
    linearBackwardInput(dk, w('self_attn.k_proj'), dXn, s, d, kvHeads * hd)
    linearBackwardInput(dv, w('self_attn.v_proj'), dXn, s, d, kvHeads * hd)
    linearBackwardWeight(dq, xnQuery, g('self_attn.q_proj'), rows, d, heads * hd)
    linearBackwardWeight(dk, t.xn, g('self_attn.k_proj'), s, d, kvHeads * hd)
    linearBackwardWeight(dv, t.xn, g('self_attn.v_proj'), s, d, kvHeads * hd)
    const dIn = new Float64Array(s * d)
    dIn.set(dH1, from * d)
    rmsNormBackward(dXn, t.x, t.inv1, w('input_layernorm'), dIn, g('input_layernorm'), s, d)
    dx = dIn
  }
  const dEmbed = view(grads, 'model.embed_tokens.weight')
  for (let r = 0; r < s; r++) {
    const at = tape.ids[r]! * d
    for (let j = 0; j < d; j++) dEmbed[at + j] = dEmbed[at + j]! + dx[r * d + j]!
  }
}
