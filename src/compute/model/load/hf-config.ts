// config.json of a model folder (Hugging Face Qwen2 keys) ↔ tabswarm's ModelConfig plus the EOS ids,
// which ModelConfig does not carry because training never stops at them.
import { validateConfig, type ModelConfig } from '../config.ts'

export interface FolderConfig {
  readonly config: ModelConfig
  /** every id that ends a completion (config.json's eos_token_id, a number or a list) */
  readonly eosIds: readonly number[]
}

/** Hugging Face's Qwen2Config defaults for the keys a config may leave out. */
const HF_DEFAULTS = { rope_theta: 10000, rms_norm_eps: 1e-6, tie_word_embeddings: false }

function integerField(json: Record<string, unknown>, key: string): number {
  const value = json[key]
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw new RangeError(`config.json: ${key} must be a positive integer (got ${JSON.stringify(value)})`)
  return value
}

function numberField(json: Record<string, unknown>, key: keyof typeof HF_DEFAULTS): number {
  const value = json[key] ?? HF_DEFAULTS[key]
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new RangeError(`config.json: ${key} must be a number (got ${JSON.stringify(value)})`)
  return value
}

function eosIdsOf(value: unknown): number[] {
  const ids = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]
  if (!ids.every((id) => Number.isInteger(id) && (id as number) >= 0))
    throw new RangeError(
      `config.json: eos_token_id must be a token id or a list of them (got ${JSON.stringify(value)})`,
    )
  return ids as number[]
}

export function parseHfConfig(bytes: Uint8Array): FolderConfig {
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder().decode(bytes))
  } catch (error) {
    throw new SyntaxError(`config.json is not JSON: ${(error as Error).message}`)
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new TypeError('config.json must hold a JSON object')
  const fields = json as Record<string, unknown>
  const heads = integerField(fields, 'num_attention_heads')
  const tied = fields.tie_word_embeddings ?? HF_DEFAULTS.tie_word_embeddings
  if (typeof tied !== 'boolean')
    throw new RangeError('config.json: tie_word_embeddings must be true or false')
  const config: ModelConfig = {
    vocabSize: integerField(fields, 'vocab_size'),
    dim: integerField(fields, 'hidden_size'),
    layers: integerField(fields, 'num_hidden_layers'),
    heads,
    kvHeads: fields.num_key_value_heads === undefined ? heads : integerField(fields, 'num_key_value_heads'),
    ffnDim: integerField(fields, 'intermediate_size'),
    ropeTheta: numberField(fields, 'rope_theta'),
    maxSeqLen: integerField(fields, 'max_position_embeddings'),
    tiedEmbeddings: tied,
    normEps: numberField(fields, 'rms_norm_eps'),
  }
  try {
    validateConfig(config)
  } catch (error) {
    throw new RangeError(`config.json: ${(error as Error).message}`)
  }
  return { config, eosIds: eosIdsOf(fields.eos_token_id) }
}

/** config.json for a tabswarm model: the inverse of parseHfConfig. */
export function hfConfigJson(config: ModelConfig, eosIds: readonly number[]): Record<string, unknown> {
  return {
    architectures: ['Qwen2ForCausalLM'],
    model_type: 'qwen2',
    vocab_size: config.vocabSize,
    hidden_size: config.dim,
    num_hidden_layers: config.layers,
    num_attention_heads: config.heads,
    num_key_value_heads: config.kvHeads,
    intermediate_size: config.ffnDim,
    rope_theta: config.ropeTheta,
    max_position_embeddings: config.maxSeqLen,
    tie_word_embeddings: config.tiedEmbeddings,
    rms_norm_eps: config.normEps,
    hidden_act: 'silu',
    eos_token_id: eosIds.length === 1 ? eosIds[0] : [...eosIds],
  }
}
