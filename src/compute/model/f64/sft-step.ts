// One supervised step: summed answer-token cross-entropy over a batch of sequences, averaged per
// answer token, then clipping and AdamW. Each sequence's gradient is computed on its own and the parts
// add in batch order, so a step is the same bits every time, on one thread or shared among workers.
import type { ModelConfig } from '../config.ts'
import { adamWStep, clipGlobalNorm, type AdamWSettings, type AdamWState } from './adamw.ts'
import { backwardTape } from './backward-tape.ts'
import { flatViews, type FlatParams } from './flat-params.ts'
import { forwardTape } from './forward-tape.ts'
import { maskedCrossEntropy } from './masked-cross-entropy.ts'

/** A token sequence whose tokens from `lossFrom` on are predicted (and scored). */
export interface SftSequence {
  readonly ids: Int32Array
  readonly lossFrom: number
}

export interface StepResult {
  /** Mean cross-entropy per answer token (nats), before the update. */
  readonly loss: number
  readonly gradNorm: number
}

/** Row r predicts token r + 1: the inputs are all tokens but the last, the scored rows are the last ones. */
function lossRows(seq: SftSequence): { inputs: Int32Array; targets: Int32Array } {
  const n = seq.ids.length
  if (!Number.isInteger(seq.lossFrom) || seq.lossFrom < 1 || seq.lossFrom >= n)
    throw new RangeError(`lossFrom ${seq.lossFrom} must be in 1…${n - 1} for a ${n}-token sequence`)
  return { inputs: seq.ids.subarray(0, n - 1), targets: seq.ids.subarray(seq.lossFrom) }
}

/** Accumulates into `grads` the gradient of scale·(summed loss of `seq`); returns the summed loss. */
export function accumulateSequence(
  config: ModelConfig,
  params: ReadonlyMap<string, Float64Array>,
  grads: ReadonlyMap<string, Float64Array>,
  seq: SftSequence,
  scale: number,
): number {
  const { inputs, targets } = lossRows(seq)
  const { logits, tape } = forwardTape(config, params, inputs, targets.length)
  const dLogits = new Float64Array(logits.length)
  const loss = maskedCrossEntropy(logits, targets, config.vocabSize, scale, dLogits)
  backwardTape(config, params, tape, dLogits, grads)
  return loss
}

/** One sequence's summed answer loss and the gradient of scale·(that loss), laid out like params. */
export interface SequenceGradient {
  readonly loss: number
  readonly grads: Float64Array
}

/** A batch's mean answer-token loss and its gradient. */
export type BatchGradient = SequenceGradient

/** How many answer tokens a batch scores: each sequence's gradient is scaled by its inverse. */
export function answerTokens(batch: readonly SftSequence[]): number {
  const tokens = batch.reduce((n, seq) => n + lossRows(seq).targets.length, 0)
  if (tokens === 0) throw new RangeError('a training batch needs at least one answer token')
  return tokens
}

export function sequenceGradient(model: FlatParams, seq: SftSequence, scale: number): SequenceGradient {
  const grads = new Float64Array(model.data.length)
  const loss = accumulateSequence(model.config, model.views, flatViews(model.specs, grads), seq, scale)
  return { loss, grads }
}

/**
 * The batch's gradient from its sequences' parts, added in batch order onto zeros. Each part is computed
 * alone, so the sum is the same bits whether one thread computed them all or several shared them.
 */
export function sumSequenceGradients(parts: readonly SequenceGradient[], tokens: number): BatchGradient {
  const grads = new Float64Array(parts[0]?.grads.length ?? 0)
  let loss = 0
  for (const part of parts) {
    loss += part.loss
    for (let i = 0; i < grads.length; i++) grads[i] = grads[i]! + part.grads[i]!
  }
  return { loss: loss / tokens, grads }
}

export function batchGradient(model: FlatParams, batch: readonly SftSequence[]): BatchGradient {
  const tokens = answerTokens(batch)
  return sumSequenceGradients(
    batch.map((seq) => sequenceGradient(model, seq, 1 / tokens)),
    tokens,
  )
}

/** Clipping and AdamW with a batch gradient (which clipping scales in place). */
export function applyGradient(
  model: FlatParams,
  optimizer: AdamWState,
  settings: AdamWSettings,
  lr: number,
  gradient: BatchGradient,
): StepResult {
  const gradNorm = clipGlobalNorm(gradient.grads, settings.clipNorm)
  adamWStep(model.data, gradient.grads, optimizer, settings, lr)
  return { loss: gradient.loss, gradNorm }
}

export function sftStep(
  model: FlatParams,
  optimizer: AdamWState,
  settings: AdamWSettings,
  lr: number,
  batch: readonly SftSequence[],
): StepResult {
  return applyGradient(model, optimizer, settings, lr, batchGradient(model, batch))
}
