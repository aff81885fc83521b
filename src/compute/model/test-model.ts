import { toFloat } from '../kernels/ref/tensor.ts'
import type { ModelConfig } from './config.ts'
import type { Params } from './params.ts'

/** A model small enough for unit tests: 2 layers, GQA 4→2 heads, head dim 8. */
export const TINY_CONFIG: ModelConfig = {
  vocabSize: 24,
  dim: 32,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  ffnDim: 48,
  ropeTheta: 10000,
  maxSeqLen: 16,
  tiedEmbeddings: true,
  normEps: 1e-6,
}

export function paramsF64(params: Params): Map<string, Float64Array> {
  return new Map([...params].map(([name, t]) => [name, toFloat(t)]))
}
