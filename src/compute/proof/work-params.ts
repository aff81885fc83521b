import type { GenerateOptions } from '../model/generate.ts'
import type { GrpoConfig } from '../model/grpo-step.ts'
import type { TrainConfig } from '../model/train-step.ts'
import type { GrpoObjective } from '../../core/learning/grpo-objective.ts'
import type { LearningConfig } from '../../core/learning/learning-config.ts'
import type { JsonObject } from '../../core/protocol/receipt-schema.ts'

/** A generation's receipt params: everything that steers it except the seed and the prompt. */
export interface GenerationParams {
  readonly maxNewTokens: number
  readonly temperatureQ16: number
  readonly topK: number
  readonly topPQ30: number
  /** Philox counter word (e.g. the round), so one seed serves many generations. */
  readonly step: number
  readonly eosToken: number | null
}

/** A training step's receipt params: AdamW and clipping; maxGradNorm null means no clipping. */
export interface TrainingParams {
  readonly lr: number
  readonly beta1: number
  readonly beta2: number
  readonly eps: number
  readonly weightDecay: number
  readonly maxGradNorm: number | null
}

/** A GRPO step's receipt params: AdamW and clipping as in training, plus the objective (klBeta in (0, 1]). */
export type GrpoParams = TrainingParams & GrpoObjective

/**
 * Adam's moment decays and epsilon: the swarm config leaves them out (the usual values), the receipts
 * record them with the step.
 */
export const ADAM_MOMENTS = { beta1: 0.9, beta2: 0.999, eps: 1e-8 } as const

/** A step's receipt params from the swarm's GRPO settings: a klBeta of 0 is no penalty, so it is left out. */
export function grpoParamsOf(grpo: LearningConfig['grpo']): GrpoParams {
  const { klBeta, ...rest } = grpo
  return { ...rest, ...ADAM_MOMENTS, ...(klBeta ? { klBeta } : {}) }
}

function readNumbers<K extends string>(
  json: JsonObject,
  keys: readonly K[],
  ok: (key: K, v: unknown) => boolean,
): Record<K, number | null> {
  const extra = Object.keys(json).find((k) => !keys.includes(k as K))
  if (extra !== undefined) throw new RangeError(`params.${extra} is not a parameter of this kind of work`)
  const out = {} as Record<K, number | null>
  for (const key of keys) {
    if (!ok(key, json[key])) throw new RangeError(`params.${key} is missing or out of range`)
    out[key] = json[key] as number | null
  }
  return out
}

const u32 = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < 2 ** 32

export function generationParams(json: JsonObject): GenerationParams {
  const keys = ['maxNewTokens', 'temperatureQ16', 'topK', 'topPQ30', 'step', 'eosToken'] as const
  return readNumbers(json, keys, (key, v) => (key === 'eosToken' && v === null) || u32(v)) as GenerationParams
}

const TRAINING_KEYS = ['lr', 'beta1', 'beta2', 'eps', 'weightDecay', 'maxGradNorm'] as const

const trainingValue = (key: string, v: unknown) =>
  (key === 'maxGradNorm' && v === null) || (typeof v === 'number' && Number.isFinite(v) && v >= 0)

export function trainingParams(json: JsonObject): TrainingParams {
  return readNumbers(json, TRAINING_KEYS, trainingValue) as TrainingParams
}

const CLIP_KEYS = ['clipEps', 'clipEpsHigh'] as const

/**
 * Both clip bounds must be in (0, 1): the ratio range [1 − ε_low, 1 + ε_high] is then positive. klBeta,
 * when present, is in (0, 1].
 */
export function grpoParams(json: JsonObject): GrpoParams {
  const { klBeta, ...rest } = json
  const params = readNumbers(rest, [...TRAINING_KEYS, ...CLIP_KEYS], (key, v) =>
    (CLIP_KEYS as readonly string[]).includes(key)
      ? typeof v === 'number' && v > 0 && v < 1
      : trainingValue(key, v),
  ) as unknown as GrpoParams
  if (klBeta === undefined) return params
  if (typeof klBeta !== 'number' || !(klBeta > 0 && klBeta <= 1))
    throw new RangeError('params.klBeta must be a number in (0, 1]; leave it out for no KL penalty')
  return { ...params, klBeta }
}

export function generateOptions(params: GenerationParams, seed: readonly [number, number]): GenerateOptions {
  const { maxNewTokens, temperatureQ16, topK, topPQ30, step, eosToken } = params
  return {
    maxNewTokens,
    sampling: { temperatureQ16, topK, topPQ30 },
    seed,
    step,
    ...(eosToken === null ? {} : { eosToken }),
  }
}

export function trainConfig(params: TrainingParams): TrainConfig {
  return { ...params, maxGradNorm: params.maxGradNorm ?? Infinity }
}

export function grpoConfig(params: GrpoParams): GrpoConfig {
  const { clipEps, clipEpsHigh, klBeta } = params
  return { ...trainConfig(params), clipEps, clipEpsHigh, ...(klBeta === undefined ? {} : { klBeta }) }
}
