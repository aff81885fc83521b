import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { canonicalJson } from '../../core/protocol/canonical-json.ts'

/** tabswarm's decoder-only transformer, Qwen2 style: RMSNorm, RoPE, SwiGLU, causal grouped-query attention. */
export interface ModelConfig {
  readonly vocabSize: number
  /** Residual width. */
  readonly dim: number
  readonly layers: number
  readonly heads: number
  /** Key/value heads; heads must be a multiple (GQA). */
  readonly kvHeads: number
  /** SwiGLU hidden width. */
  readonly ffnDim: number
  /** RoPE base, an integer (10000, 1000000). */
  readonly ropeTheta: number
  readonly maxSeqLen: number
  /** Reuse the embedding matrix as the output projection. */
  readonly tiedEmbeddings: boolean
  readonly normEps: number
}

export function headDim(config: ModelConfig): number {
  return config.dim / config.heads
}

/** Throws with the offending field when a config cannot describe a model. */
export function validateConfig(config: ModelConfig): ModelConfig {
  const positive = ['vocabSize', 'dim', 'layers', 'heads', 'kvHeads', 'ffnDim', 'maxSeqLen'] as const
  for (const key of positive)
    if (!Number.isInteger(config[key]) || config[key] <= 0)
      throw new RangeError(`model config: ${key} must be a positive integer`)
  if (config.dim % config.heads !== 0) throw new RangeError('model config: dim must be a multiple of heads')
  if (headDim(config) % 2 !== 0) throw new RangeError('model config: dim/heads must be even for RoPE')
  if (config.heads % config.kvHeads !== 0)
    throw new RangeError('model config: heads must be a multiple of kvHeads')
  if (!Number.isInteger(config.ropeTheta) || config.ropeTheta < 2)
    throw new RangeError('model config: ropeTheta must be an integer ≥ 2')
  if (!(config.normEps > 0)) throw new RangeError('model config: normEps must be positive')
  return config
}

/** SHA-256 of the RFC 8785 canonical JSON of the config: the receipts' configHash. */
export function configHash(config: ModelConfig): string {
  return bytesToHex(sha256(new TextEncoder().encode(canonicalJson(config))))
}
