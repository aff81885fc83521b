import { ceilLog2, divRne } from './rounding.ts'
import { tokenLogProbBackward, tokenLogProbs } from './logprob.ts'
import { qtensor, type QTensor } from './tensor.ts'

/** Loss values (nats) are held at 2^-24: range ±128, resolution 6e-8. */
export const LOSS_EXP = -24

/** Mean token cross-entropy −(1/T)·Σ log p(target_i), a scalar at LOSS_EXP (exact sum, one division). */
export function crossEntropy(logits: QTensor, targets: Int32Array): QTensor {
  const lp = tokenLogProbs(logits, targets, LOSS_EXP)
  let sum = 0
  for (const v of lp.data) sum += v
  return qtensor([1], LOSS_EXP, Int32Array.of(divRne(-sum, lp.data.length, 0)))
}

/** d loss / d logits = (p − onehot)/T: the gather backward with g_i = −1/T (one division, Q30-relative). */
export function crossEntropyBackward(logits: QTensor, targets: Int32Array): QTensor {
  const t = targets.length
  const k = ceilLog2(Math.max(t, 1))
  // −2^30/T at exponent −30 − k: |·| ≤ 2^30, one rounding (exact when T is a power of two)
  const g = divRne(-(2 ** 30), t, k)
  return tokenLogProbBackward(logits, targets, qtensor([t], -30 - k, new Int32Array(t).fill(g)))
}
