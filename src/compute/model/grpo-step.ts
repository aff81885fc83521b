// One GRPO step on the reproducible kernels: the policy's log-probs of the sampled completion tokens,
// the clipped-ratio surrogate against the old policy's log-probs with group-normalised advantages, then
// the same backward, clip and AdamW as supervised training. Old log-probs come from the reproducible
// forward too (`tokenLogProbsOf`): the sampler's f32 numbers are never trusted.
import type { GrpoObjective } from '../../core/learning/grpo-objective.ts'
import { LOSS_EXP } from '../kernels/ref/cross-entropy.ts'
import { fromFloat, type QTensor } from '../kernels/ref/tensor.ts'
import type { ModelConfig } from './config.ts'
import { forwardProgram, type Batch } from './forward.ts'
import type { Params } from './params.ts'
import { op, type Program } from './program.ts'
import { scopedTrace, type TraceHook } from './trace-hook.ts'
import { descend, type TrainConfig, type TrainState, type TrainStepResult } from './train-step.ts'
import { onTwin } from './twin-ops.ts'

/** Advantages are held at 2^-20: ±2048 at 1e-6 (group-normalised advantages stay within ±√G). */
export const ADVANTAGE_EXP = -20

/** The objective (0 is also accepted for klBeta: no penalty) with the optimizer's settings. */
export type GrpoConfig = TrainConfig & GrpoObjective

/** A GRPO step's result: a supervised step's, plus the mean KL to the reference when β > 0. */
export interface GrpoStepResult extends TrainStepResult {
  /** mean k3 estimate of KL(π_θ ‖ π_ref) over the completion tokens, [1] at LOSS_EXP; only when β > 0 */
  readonly kl?: QTensor
}

/** A batch of rollouts laid out for the model: one row per completion, prompt + completion, padded. */
export interface RolloutBatch {
  readonly inputs: Batch
  /** the next token at every position (anything at masked positions) */
  readonly targets: Int32Array
  /** 1 where the target is a completion token, 0 for prompt and padding */
  readonly mask: Uint8Array
  /** each row's group-normalised advantage, one per row */
  readonly advantages: readonly number[]
}

/** log π(target) at every position, at LOSS_EXP: the policy's view of the sampled tokens. */
export function* tokenLogProbsProgram(
  config: ModelConfig,
  params: Params,
  batch: RolloutBatch,
): Program<QTensor> {
  const { logits } = yield* forwardProgram(config, params, batch.inputs)
  return yield* op('tokenLogProbs', logits, batch.targets, LOSS_EXP)
}

/** `tokenLogProbsProgram` on the TS twin. */
export const tokenLogProbsOf = onTwin(tokenLogProbsProgram)

/** Per-position advantages at ADVANTAGE_EXP: each row's advantage on its masked positions, else 0. */
export function positionAdvantages(batch: RolloutBatch): QTensor {
  const { batch: rows, seqLen } = batch.inputs
  if (batch.advantages.length !== rows)
    throw new RangeError(`grpo: ${batch.advantages.length} advantages for ${rows} rows`)
  const values = Float64Array.from({ length: rows * seqLen }, (_, i) =>
    batch.mask[i] ? batch.advantages[Math.floor(i / seqLen)]! : 0,
  )
  return fromFloat([rows * seqLen], ADVANTAGE_EXP, values)
}

/** β in Q30 (0 without a penalty); throws when β is out of range or its reference log-probs are missing. */
function klBetaQ30Of(train: GrpoConfig, refLogProbs: QTensor | undefined): number {
  const beta = train.klBeta ?? 0
  if (!(beta >= 0 && beta <= 1))
    throw new RangeError(`grpoStep: klBeta must be a number in [0, 1] (0 for no KL penalty), got ${beta}`)
  if (beta > 0 && refLogProbs === undefined)
    throw new RangeError(
      'grpoStep: a KL penalty (klBeta > 0) needs the reference policy’s log-probs: ' +
        'tokenLogProbsOf on the reference weights',
    )
  return Math.round(beta * 2 ** 30)
}

/**
 * One step, as a program. Pure: the same state, batch and old log-probs give the same bits.
 * `oldLogProbs` undefined means on-policy (one update per batch, the swarm's default): the old policy
 * is the current one, so its log-probs are this step's own forward, bit for bit what
 * `tokenLogProbsOf` would give, without a second forward pass. `refLogProbs` are the reference
 * policy's (`tokenLogProbsOf` on the reference weights), needed when `train.klBeta` > 0 and ignored
 * otherwise. `trace` sees forward/…, logprobs, loss, kl (only when β > 0, so traces without a KL
 * penalty are unchanged), dlogprobs, dlogits, then descend's backward/…, clip.…, adam.….
 */
export function* grpoStepProgram(
  config: ModelConfig,
  state: TrainState,
  batch: RolloutBatch,
  oldLogProbs: QTensor | undefined,
  train: GrpoConfig,
  trace?: TraceHook,
  refLogProbs?: QTensor,
): Program<GrpoStepResult> {
  const klBetaQ30 = klBetaQ30Of(train, refLogProbs)
  const forwardTrace = scopedTrace(trace, 'forward/')
  const { logits, cache } = yield* forwardProgram(config, state.params, batch.inputs, undefined, forwardTrace)
  const logProbs = yield* op('tokenLogProbs', logits, batch.targets, LOSS_EXP)
  trace?.('logprobs', logProbs)
  const { loss, dLogProbs, kl } = yield* op('grpoLoss', {
    logProbs,
    oldLogProbs: oldLogProbs ?? logProbs,
    advantages: positionAdvantages(batch),
    mask: batch.mask,
    clipEpsQ30: Math.round(train.clipEps * 2 ** 30),
    clipEpsHighQ30: Math.round(train.clipEpsHigh * 2 ** 30),
    ...(klBetaQ30 > 0 ? { refLogProbs, klBetaQ30 } : {}),
  })
  trace?.('loss', loss)
  if (klBetaQ30 > 0) trace?.('kl', kl)
  trace?.('dlogprobs', dLogProbs)
  const dLogits = yield* op('tokenLogProbBackward', logits, batch.targets, dLogProbs)
  trace?.('dlogits', dLogits)
  const next = yield* descend(config, state, cache, dLogits, train, trace)
  return { state: next.state, loss, gradNorm: next.gradNorm, ...(klBetaQ30 > 0 ? { kl } : {}) }
}

/** `grpoStepProgram` on the TS twin. */
export const grpoStep = onTwin(grpoStepProgram)
