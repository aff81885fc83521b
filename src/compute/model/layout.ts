import { headDim, type ModelConfig } from './config.ts'

/** What a parameter is, which decides its initialisation. */
export type ParamKind = 'embedding' | 'linear' | 'norm'

export interface ParamSpec {
  /** Hugging Face Qwen2 names, so checkpoints line up with safetensors tooling. */
  readonly name: string
  /** Linear weights are [out, in] like torch.nn.Linear; layers compute x·Wᵀ. */
  readonly shape: readonly number[]
  readonly kind: ParamKind
}

export function layerParamName(layer: number, part: string): string {
  return `model.layers.${layer}.${part}.weight`
}

/** Every parameter in its canonical order: the order of checkpoints, hashes and optimizer states. */
export function parameterLayout(config: ModelConfig): ParamSpec[] {
  const { vocabSize: v, dim: d, ffnDim: f, heads, kvHeads } = config
  const hd = headDim(config)
  const specs: ParamSpec[] = [{ name: 'model.embed_tokens.weight', shape: [v, d], kind: 'embedding' }]
  for (let l = 0; l < config.layers; l++) {
    const at = (part: string, shape: number[], kind: ParamKind) =>
      specs.push({ name: layerParamName(l, part), shape, kind })
    at('input_layernorm', [d], 'norm')
    at('self_attn.q_proj', [heads * hd, d], 'linear')
    at('self_attn.k_proj', [kvHeads * hd, d], 'linear')
    at('self_attn.v_proj', [kvHeads * hd, d], 'linear')
    at('self_attn.o_proj', [d, heads * hd], 'linear')
    at('post_attention_layernorm', [d], 'norm')
    at('mlp.gate_proj', [f, d], 'linear')
    at('mlp.up_proj', [f, d], 'linear')
    at('mlp.down_proj', [d, f], 'linear')
  }
  specs.push({ name: 'model.norm.weight', shape: [d], kind: 'norm' })
  if (!config.tiedEmbeddings) specs.push({ name: 'lm_head.weight', shape: [v, d], kind: 'linear' })
  return specs
}
