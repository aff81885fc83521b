import { weightsHash as paramsWeightsHash } from '../model/checkpoint.ts'
import { configHash, type ModelConfig } from '../model/config.ts'
import type { Batch } from '../model/forward.ts'
import { generateProgram } from '../model/generate.ts'
import { grpoStepProgram } from '../model/grpo-step.ts'
import type { Params } from '../model/params.ts'
import type { Program } from '../model/program.ts'
import { trainStepProgram, type TrainState, type TrainStepResult } from '../model/train-step.ts'
import { batchJson } from './batch-inputs.ts'
import { jsonHash } from '../../core/protocol/digest.ts'
import { grpoInputsJson, type GrpoRollout } from './grpo-inputs.ts'
import { extend, stepDigest, type ChainPosition } from '../../core/protocol/hash-chain.ts'
import { optimizerHash } from './optimizer-state.ts'
import {
  extendsChain,
  type FinishReason,
  type JsonObject,
  type ReceiptBody,
  type ReceiptKind,
} from '../../core/protocol/receipt-schema.ts'
import { traceRecorder, traceRoot } from './trace.ts'
import { type TraceEntry } from '../../core/protocol/inputs-file.ts'
import {
  generateOptions,
  grpoConfig,
  trainConfig,
  type GenerationParams,
  type GrpoParams,
  type TrainingParams,
} from './work-params.ts'

/**
 * One piece of work run with a trace: what a receipt says about it. The builder runs it to make a
 * receipt and the verifier runs it again to check one, so both describe work the same way. Work is a
 * program (src/compute/model/program.ts): the same description runs on the TS twin or on the WGSL kernels.
 */
export interface WorkOutcome {
  readonly kind: ReceiptKind
  readonly params: JsonObject
  readonly seed: readonly [number, number] | null
  /** Canonical inputs (inputHash is their JSON hash). */
  readonly inputs: JsonObject
  /** Canonical outputs (outputHash is their JSON hash). */
  readonly outputs: JsonObject
  readonly trace: readonly TraceEntry[]
  readonly tokenCount?: number
  readonly finishReason?: FinishReason
}

export function* generationWork(
  config: ModelConfig,
  weights: Params,
  prompt: Int32Array,
  params: GenerationParams,
  seed: readonly [number, number],
): Program<WorkOutcome> {
  const recorder = traceRecorder()
  const result = yield* generateProgram(config, weights, prompt, generateOptions(params, seed), recorder.hook)
  return {
    kind: 'generation',
    params: { ...params },
    seed,
    inputs: { prompt: Array.from(prompt) },
    outputs: { tokens: Array.from(result.tokens) },
    trace: recorder.entries,
    tokenCount: result.tokens.length,
    finishReason: result.finishReason,
  }
}

/** A step that changed the weights: its outcome and the state it left. */
export type TrainingOutcome = WorkOutcome & { readonly state: TrainState }

/**
 * What every weight-changing step shares: no draws, the optimizer state it read among its inputs,
 * and the weights and optimizer state it left, the loss and the gradient norm as its outputs.
 */
function trainingOutcome(
  kind: ReceiptKind,
  config: ModelConfig,
  before: TrainState,
  params: JsonObject,
  inputs: JsonObject,
  result: TrainStepResult,
  trace: readonly TraceEntry[],
): TrainingOutcome {
  return {
    kind,
    params,
    seed: null,
    inputs: { ...inputs, optimizerHash: optimizerHash(config, before.optimizer) },
    outputs: {
      weightsHash: paramsWeightsHash(config, result.state.params),
      optimizerHash: optimizerHash(config, result.state.optimizer),
      loss: { exp: result.loss.exp, value: result.loss.data[0]! },
      gradNorm: result.gradNorm.toString(),
    },
    trace,
    state: result.state,
  }
}

/** Next-token targets travel with the batch: a step's canonical inputs are ids, targets and the optimizer state. */
export function* trainingStepWork(
  config: ModelConfig,
  state: TrainState,
  batch: Batch,
  targets: Int32Array,
  params: TrainingParams,
): Program<TrainingOutcome> {
  const recorder = traceRecorder()
  const result = yield* trainStepProgram(config, state, batch, targets, trainConfig(params), recorder.hook)
  return trainingOutcome(
    'training-step',
    config,
    state,
    { ...params },
    batchJson(batch, targets),
    result,
    recorder.entries,
  )
}

/**
 * One GRPO step on `rollout`, on-policy (one step per rollout batch, so the old policy is the weights
 * being trained and its log-probs are the step's own forward — recomputed from the weights, never the
 * sampler's). Inputs: the batch, the fixed-point advantages, the rewards and group sizes they came
 * from, the optimizer state, and with a KL penalty (params.klBeta) the reference log-probs; the mean KL
 * then joins the outputs.
 */
export function* grpoStepWork(
  config: ModelConfig,
  state: TrainState,
  rollout: GrpoRollout,
  params: GrpoParams,
): Program<TrainingOutcome> {
  if (rollout.refLogProbs && params.klBeta === undefined)
    throw new RangeError(
      'params.klBeta is missing: the inputs carry reference log-probs, which only a KL penalty uses',
    )
  if (!rollout.refLogProbs && params.klBeta !== undefined)
    throw new RangeError(
      'inputs file: inputs.refLogProbs is missing: params.klBeta asks for a KL penalty against the reference policy',
    )
  const recorder = traceRecorder()
  const result = yield* grpoStepProgram(
    config,
    state,
    rollout.batch,
    undefined,
    grpoConfig(params),
    recorder.hook,
    rollout.refLogProbs,
  )
  const outcome = trainingOutcome(
    'grpo-step',
    config,
    state,
    { ...params },
    grpoInputsJson(rollout),
    result,
    recorder.entries,
  )
  const { kl } = result
  return kl
    ? { ...outcome, outputs: { ...outcome.outputs, kl: { exp: kl.exp, value: kl.data[0]! } } }
    : outcome
}

/** Where the work ran: the model, the exact weights and kernels, and the training chain so far. */
export interface WorkContext {
  readonly modelId: string
  readonly config: ModelConfig
  readonly weightsHash: string
  readonly kernelsHash: string
  /** The chain that produced the weights (genesis for fresh weights). */
  readonly chain: ChainPosition
}

/**
 * The receipt fields of an outcome (all but peerId). A training or GRPO step extends the chain by its own
 * step digest; any other work only reports the chain position of the weights it used.
 */
export function describeWork(outcome: WorkOutcome, ctx: WorkContext): Omit<ReceiptBody, 'peerId'> {
  const work = {
    version: 1 as const,
    kind: outcome.kind,
    modelId: ctx.modelId,
    configHash: configHash(ctx.config),
    weightsHash: ctx.weightsHash,
    kernelsHash: ctx.kernelsHash,
    opSet: 'reproducible' as const,
    inputHash: jsonHash(outcome.inputs),
    params: outcome.params,
    paramsHash: jsonHash(outcome.params),
    seed: outcome.seed,
    outputHash: jsonHash(outcome.outputs),
    ...(outcome.tokenCount === undefined ? {} : { tokenCount: outcome.tokenCount }),
    ...(outcome.finishReason === undefined ? {} : { finishReason: outcome.finishReason }),
    traceRoot: traceRoot(outcome.trace),
  }
  const chain = extendsChain(outcome.kind) ? extend(ctx.chain, stepDigest(work)) : ctx.chain
  return { ...work, chainTip: chain.tip, chainLength: chain.length }
}
