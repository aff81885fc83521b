import { configHash, type ModelConfig } from '../model/config.ts'
import { MICRO_NAME, MICRO_RECIPE } from '../model/sft/micro-recipe.ts'
import { SOLVER_RECIPE } from '../model/sft/solver-recipe.ts'
import { TINY_CONFIG } from '../model/test-model.ts'

/** The test-sized model of the unit tests and the demo receipts. */
export const TEST_MODEL_ID = 'tabswarm-test'
/** The shipped model (public/models/tabswarm-tiny), whose weights the swarm trains. */
export const SHIPPED_MODEL_ID = 'tabswarm-tiny'
/** The learning-swarm browser tests' model (public/models/tabswarm-micro). */
export const MICRO_MODEL_ID = MICRO_NAME

/** The models a verifier knows by modelId; a receipt's modelId must name one whose config it used. */
export const MODELS: Readonly<Record<string, ModelConfig>> = {
  [TEST_MODEL_ID]: TINY_CONFIG,
  [SHIPPED_MODEL_ID]: SOLVER_RECIPE.config,
  [MICRO_MODEL_ID]: MICRO_RECIPE.config,
}

export function modelConfigHash(modelId: string): string | undefined {
  const config = MODELS[modelId]
  return config && configHash(config)
}
