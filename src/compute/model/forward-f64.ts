import { headDim, type ModelConfig } from './config.ts'
import type { Batch } from './forward.ts'
import { layerParamName } from './layout.ts'

/**
 * The same decoder in plain float64 (textbook formulas, Math.exp/sin/cos): the yardstick the tests
 * and the training proof compare the integer model with. Parameters are floats by name.
 */
export function forwardF64(
  config: ModelConfig,
  params: Map<string, Float64Array>,
  batch: Batch,
): Float64Array {
  const { dim: d, heads, kvHeads, ffnDim: f, vocabSize: vocab } = config
  const hd = headDim(config)
  const { batch: nb, seqLen: s } = batch
  const rows = nb * s
  const p = (name: string) => params.get(name)!
  const w = (l: number, part: string) => p(layerParamName(l, part))
  const linear = (x: Float64Array, wt: Float64Array, out: number, inn: number) => {
    const y = new Float64Array(rows * out)
    for (let r = 0; r < rows; r++)
      for (let o = 0; o < out; o++) {
        let acc = 0
        for (let i = 0; i < inn; i++) acc += x[r * inn + i]! * wt[o * inn + i]!
        y[r * out + o] = acc
      }
    return y
  }
  const norm = (x: Float64Array, g: Float64Array) => {
    const y = new Float64Array(x.length)
    for (let r = 0; r < rows; r++) {
      let ss = 0
      for (let j = 0; j < d; j++) ss += x[r * d + j]! ** 2
      const inv = 1 / Math.sqrt(ss / d + config.normEps)
      for (let j = 0; j < d; j++) y[r * d + j] = x[r * d + j]! * inv * g[j]!
    }
    return y
  }
  const rope = (x: Float64Array, nh: number) => {
    const y = Float64Array.from(x)
    for (let r = 0; r < rows; r++)
      for (let h = 0; h < nh; h++)
        for (let i = 0; i < hd / 2; i++) {
          const angle = (r % s) * config.ropeTheta ** (-(2 * i) / hd)
          const at = r * nh * hd + h * hd + i
          const [a, b] = [x[at]!, x[at + hd / 2]!]
          y[at] = a * Math.cos(angle) - b * Math.sin(angle)
          y[at + hd / 2] = b * Math.cos(angle) + a * Math.sin(angle)
        }
    return y
  }
  const embed = p('model.embed_tokens.weight')
  let h = new Float64Array(rows * d)
  batch.ids.forEach((id, r) => h.set(embed.subarray(id * d, (id + 1) * d), r * d))
  for (let l = 0; l < config.layers; l++) {
    const xn = norm(h, w(l, 'input_layernorm'))
    const q = rope(linear(xn, w(l, 'self_attn.q_proj'), heads * hd, d), heads)
    const k = rope(linear(xn, w(l, 'self_attn.k_proj'), kvHeads * hd, d), kvHeads)
    const v = linear(xn, w(l, 'self_attn.v_proj'), kvHeads * hd, d)
    const o = new Float64Array(rows * heads * hd)
    for (let b = 0; b < nb; b++)
      for (let hh = 0; hh < heads; hh++) {
        const g = Math.floor(hh / (heads / kvHeads))
        for (let i = 0; i < s; i++) {
          const sc = Array.from({ length: i + 1 }, (_, j) => {
            let dot = 0
            for (let c = 0; c < hd; c++)
              dot += q[(b * s + i) * heads * hd + hh * hd + c]! * k[(b * s + j) * kvHeads * hd + g * hd + c]!
            return dot / Math.sqrt(hd)
          })
          const max = Math.max(...sc)
          const e = sc.map((x) => Math.exp(x - max))
          const z = e.reduce((a, x) => a + x, 0)
          for (let c = 0; c < hd; c++)
            o[(b * s + i) * heads * hd + hh * hd + c] = e.reduce(
              (acc, x, j) => acc + (x / z) * v[(b * s + j) * kvHeads * hd + g * hd + c]!,
              0,
            )
        }
      }
    const attnOut = linear(o, w(l, 'self_attn.o_proj'), d, heads * hd)
    h = h.map((x, i) => x + attnOut[i]!)
    const xn2 = norm(h, w(l, 'post_attention_layernorm'))
    const gate = linear(xn2, w(l, 'mlp.gate_proj'), f, d)
    const up = linear(xn2, w(l, 'mlp.up_proj'), f, d)
    const act = gate.map((g, i) => (g / (1 + Math.exp(-g))) * up[i]!)
    const down = linear(act, w(l, 'mlp.down_proj'), d, f)
    h = h.map((x, i) => x + down[i]!)
  }
  const hn = norm(h, p('model.norm.weight'))
  return linear(hn, p(config.tiedEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight'), vocab, d)
}
