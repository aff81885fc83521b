// Next-token cross-entropy over the rows the loss reads (the answer tokens), with its gradient.

/**
 * Returns Σ_r −log softmax(logits[r])[targets[r]] (natural log) and writes
 * dLogits[r] = scale·(softmax(logits[r]) − onehot(targets[r])), the gradient of scale·loss.
 */
export function maskedCrossEntropy(
  logits: Float64Array,
  targets: ArrayLike<number>,
  vocab: number,
  scale: number,
  dLogits: Float64Array,
): number {
  let loss = 0
  for (let r = 0; r < targets.length; r++) {
    const at = r * vocab
    const target = targets[r]!
    if (!Number.isInteger(target) || target < 0 || target >= vocab)
      throw new RangeError(`target token ${target} is outside the vocabulary`)
    let max = -Infinity
    for (let c = 0; c < vocab; c++) if (logits[at + c]! > max) max = logits[at + c]!
    let z = 0
    for (let c = 0; c < vocab; c++) z += Math.exp(logits[at + c]! - max)
    const logZ = Math.log(z) + max
    loss += logZ - logits[at + target]!
    for (let c = 0; c < vocab; c++) dLogits[at + c] = scale * Math.exp(logits[at + c]! - logZ)
    dLogits[at + target] = dLogits[at + target]! - scale
  }
  return loss
}
