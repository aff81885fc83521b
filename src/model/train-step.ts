import { adamInit, adamStep, type AdamConfig, type AdamState } from '../kernels/ref/adam.ts'
import { clipGradNorm } from '../kernels/ref/clip.ts'
import { crossEntropy, crossEntropyBackward } from '../kernels/ref/cross-entropy.ts'
import type { QTensor } from '../kernels/ref/tensor.ts'
import { backward } from './backward.ts'
import type { ModelConfig } from './config.ts'
import { forward, type Batch } from './forward.ts'
import { parameterLayout } from './layout.ts'
import type { Params } from './params.ts'

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
 * One supervised step: next-token cross-entropy on `inputs` → `targets`, backward, global norm clip,
 * AdamW on every parameter in layout order. Pure: the same state and batch give the same bits.
 */
export function trainStep(
  config: ModelConfig,
  state: TrainState,
  inputs: Batch,
  targets: Int32Array,
  train: TrainConfig,
): TrainStepResult {
  const { logits, cache } = forward(config, state.params, inputs)
  const loss = crossEntropy(logits, targets)
  const grads = backward(config, state.params, cache, crossEntropyBackward(logits, targets))
  const names = parameterLayout(config).map((s) => s.name)
  const clipped = clipGradNorm(
    names.map((n) => grads.get(n)!),
    train.maxGradNorm,
  )
  const params: Params = new Map()
  const optimizer = new Map<string, AdamState>()
  names.forEach((name, i) => {
    const next = adamStep(state.params.get(name)!, clipped.grads[i]!, state.optimizer.get(name)!, train)
    params.set(name, next.w)
    optimizer.set(name, next.state)
  })
  return { state: { params, optimizer }, loss, gradNorm: clipped.norm }
}
