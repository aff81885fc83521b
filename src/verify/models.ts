import { configHash, type ModelConfig } from '../model/config.ts'
import { TINY_CONFIG } from '../model/test-model.ts'

/** The models a verifier knows by modelId; a receipt's modelId must name one whose config it used. */
export const MODELS: Readonly<Record<string, ModelConfig>> = {
  'tabswarm-tiny': TINY_CONFIG,
}

export const TINY_MODEL_ID = 'tabswarm-tiny'

export function modelConfigHash(modelId: string): string | undefined {
  const config = MODELS[modelId]
  return config && configHash(config)
}
