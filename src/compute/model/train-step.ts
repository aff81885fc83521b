import { adamInit, type AdamConfig, type AdamState } from '../kernels/ref/adam.ts'
import type { QTensor } from '../kernels/ref/tensor.ts'
import { backwardProgram } from './backward.ts'
import type { ModelConfig } from './config.ts'
import { forwardProgram, type Batch, type ForwardCache } from './forward.ts'
import { parameterLayout } from './layout.ts'
import type { Params } from './params.ts'
import { op, type Program } from './program.ts'
import { scopedTrace, type TraceHook } from './trace-hook.ts'
import { onTwin } from './twin-ops.ts'

export interface TrainState {
  readonly params: Params
  readonly optimizer: Map<string, AdamState>
}

export interface TrainConfig extends AdamConfig {
  /** Global gradient-norm limit; Infinity disables clipping. */
  readonly maxGradNorm: number
}

export function initTrainState(config: ModelConfig, params: Params): TrainState {
  return { params, optimizer: new Map(parameterLayout(config).map((s) => [s.name, adamInit(s.shape)])) }
}

export interface TrainStepResult {
  readonly state: TrainState
  /** Mean cross-entropy of the batch before the update (LOSS_EXP). */
  readonly loss: QTensor
  /** Global gradient norm before clipping, floor(norm·2^62). */
  readonly gradNorm: bigint
}

/**
 * The shared second half of every training step (a program): backward from d loss/d logits, global
 * norm clip, AdamW on every parameter in layout order. `trace` sees backward/…, clip.<param>, adam.<param>.{w,m,r}.
 */
export function* descend(
  config: ModelConfig,
  state: TrainState,
  cache: ForwardCache,
  dLogits: QTensor,
  train: TrainConfig,
  trace?: TraceHook,
): Program<{ state: TrainState; gradNorm: bigint }> {
  const grads = yield* backwardProgram(config, state.params, cache, dLogits, scopedTrace(trace, 'backward/'))
  const names = parameterLayout(config).map((s) => s.name)
  const clipped = yield* op(
    'clipGradNorm',
    names.map((n) => grads.get(n)!),
    train.maxGradNorm,
  )
  if (trace) names.forEach((name, i) => trace(`clip.${name}`, clipped.grads[i]!))
  const params: Params = new Map()
  const optimizer = new Map<string, AdamState>()
  for (const [i, name] of names.entries()) {
    const next = yield* op(
      'adamStep',
      state.params.get(name)!,
      clipped.grads[i]!,
      state.optimizer.get(name)!,
      train,
    )
    if (trace) {
      trace(`adam.${name}.w`, next.w)
      trace(`adam.${name}.m`, next.state.m)
      trace(`adam.${name}.r`, next.state.r)
    }
    params.set(name, next.w)
    optimizer.set(name, next.state)
  }
  return { state: { params, optimizer }, gradNorm: clipped.norm }
}

/**
 * One supervised step as a program: next-token cross-entropy on `inputs` → `targets`, then `descend`.
 * Pure: the same state and batch give the same bits. `trace` sees the ops in order: forward/…, loss,
 * dlogits, backward/…, clip.<param>, then adam.<param>.{w,m,r} per parameter.
 */
export function* trainStepProgram(
  config: ModelConfig,
  state: TrainState,
  inputs: Batch,
  targets: Int32Array,
  train: TrainConfig,
  trace?: TraceHook,
): Program<TrainStepResult> {
  const forwardTrace = scopedTrace(trace, 'forward/')
  const { logits, cache } = yield* forwardProgram(config, state.params, inputs, undefined, forwardTrace)
  const loss = yield* op('crossEntropy', logits, targets)
  const dLogits = yield* op('crossEntropyBackward', logits, targets)
  trace?.('loss', loss)
  trace?.('dlogits', dLogits)
  const next = yield* descend(config, state, cache, dLogits, train, trace)
  return { state: next.state, loss, gradNorm: next.gradNorm }
}

/** `trainStepProgram` on the TS twin. */
export const trainStep = onTwin(trainStepProgram)
