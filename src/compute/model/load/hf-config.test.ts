import { describe, expect, it } from 'vitest'
import { TINY_CONFIG } from '../test-model.ts'
import { hfConfigJson, parseHfConfig } from './hf-config.ts'

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
/** the keys of Qwen2.5-0.5B-Instruct's config.json that the loader reads */
const QWEN_05B = {
  model_type: 'qwen2',
  vocab_size: 151936,
  hidden_size: 896,
  num_hidden_layers: 24,
  num_attention_heads: 14,
  num_key_value_heads: 2,
  intermediate_size: 4864,
  rope_theta: 1000000.0,
  max_position_embeddings: 32768,
  tie_word_embeddings: true,
  rms_norm_eps: 1e-6,
  eos_token_id: 151645,
}

describe('config.json', () => {
  it('maps Hugging Face Qwen2 keys to the model config and keeps the EOS ids', () => {
    const { config, eosIds } = parseHfConfig(bytes(QWEN_05B))
    expect(config).toEqual({
      vocabSize: 151936,
      dim: 896,
      layers: 24,
      heads: 14,
      kvHeads: 2,
      ffnDim: 4864,
      ropeTheta: 1000000,
      maxSeqLen: 32768,
      tiedEmbeddings: true,
      normEps: 1e-6,
    })
    expect(eosIds).toEqual([151645])
    expect(parseHfConfig(bytes({ ...QWEN_05B, eos_token_id: [151643, 151645] })).eosIds).toEqual([
      151643, 151645,
    ])
  })

  it('round-trips tabswarm configs and applies Qwen2 defaults for left-out keys', () => {
    expect(parseHfConfig(bytes(hfConfigJson(TINY_CONFIG, [3, 4])))).toEqual({
      config: TINY_CONFIG,
      eosIds: [3, 4],
    })
    const bare: Record<string, unknown> = { ...QWEN_05B }
    for (const key of ['num_key_value_heads', 'rope_theta', 'tie_word_embeddings', 'eos_token_id'])
      delete bare[key]
    const { config, eosIds } = parseHfConfig(bytes(bare))
    expect([config.kvHeads, config.ropeTheta, config.tiedEmbeddings, eosIds]).toEqual([14, 10000, false, []])
  })

  it('names the bad field', () => {
    expect(() => parseHfConfig(bytes({ ...QWEN_05B, hidden_size: '896' }))).toThrow(
      'config.json: hidden_size must be a positive integer (got "896")',
    )
    expect(() => parseHfConfig(bytes({ ...QWEN_05B, vocab_size: undefined }))).toThrow(/vocab_size/)
    expect(() => parseHfConfig(bytes({ ...QWEN_05B, eos_token_id: 'x' }))).toThrow(/eos_token_id/)
    expect(() => parseHfConfig(bytes({ ...QWEN_05B, num_key_value_heads: 3 }))).toThrow(
      /config\.json: model config: heads must be a multiple of kvHeads/,
    )
    expect(() => parseHfConfig(new TextEncoder().encode('{oops'))).toThrow(/config\.json is not JSON/)
  })
})
