// One supervised step: summed answer-token cross-entropy over a batch of sequences, averaged per
// answer token, then clipping and AdamW. Sequences run one after another and their gradients add in
// batch order, so a step is the same bits every time.
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

/** Mean answer-token loss of a batch and its gradient (into a fresh buffer laid out like params). */
export function batchGradient(
  model: FlatParams,
  batch: readonly SftSequence[],
): { loss: number; grads: Float64Array } {
  const tokens = batch.reduce((n, seq) => n + lossRows(seq).targets.length, 0)
  if (tokens === 0) throw new RangeError('a training batch needs at least one answer token')
  const grads = new Float64Array(model.data.length)
  const gradViews = flatViews(model.specs, grads)
  let loss = 0
  for (const seq of batch) loss += accumulateSequence(model.config, model.views, gradViews, seq, 1 / tokens)
  return { loss: loss / tokens, grads }
}

export function sftStep(
  model: FlatParams,
  optimizer: AdamWState,
  settings: AdamWSettings,
  lr: number,
  batch: readonly SftSequence[],
): StepResult {
  const { loss, grads } = batchGradient(model, batch)
  const gradNorm = clipGlobalNorm(grads, settings.clipNorm)
  adamWStep(model.data, grads, optimizer, settings, lr)
  return { loss, gradNorm }
}
