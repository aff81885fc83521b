import { magnitude, expForMagnitude } from './elementwise.ts'
import { mulRneEach } from './mul-each.ts'
import { PROB_EXP, logSoftmaxAt, softmaxRow } from './softmax.ts'
import { assertShape, qtensor, type QTensor } from './tensor.ts'

function checkTargets(logits: QTensor, targets: Int32Array): [number, number] {
  const [t, v] = [logits.shape[0]!, logits.shape[1]!]
  if (logits.shape.length !== 2 || targets.length !== t)
    throw new RangeError(
      `log-prob gather needs logits [T, V] and T targets, got [${logits.shape.join(', ')}] and ${targets.length}`,
    )
  for (const id of targets)
    if (id < 0 || id >= v) throw new RangeError(`target token ${id} outside vocabulary of ${v}`)
  return [t, v]
}

/** log p(target_i | row i) at outExp: the log-softmax entry of each row's target. */
export function tokenLogProbs(logits: QTensor, targets: Int32Array, outExp: number): QTensor {
  checkTargets(logits, targets)
  return logSoftmaxAt(logits, targets, outExp)
}

/**
 * Backward of the gather: d logits_ij = g_i·([j = target_i] − p_ij), one rounding per element after
 * the softmax. The output exponent is max|g|'s, so it never saturates. A row with g_i = 0 (prompt,
 * padding, a group without signal) is all zeros, so its softmax is never computed.
 */
export function tokenLogProbBackward(logits: QTensor, targets: Int32Array, dLogProbs: QTensor): QTensor {
  const [t, v] = checkTargets(logits, targets)
  assertShape(dLogProbs, [t], 'log-prob gradient')
  const p = qtensor([t, v], PROB_EXP)
  const e = expForMagnitude(magnitude(dLogProbs))
  const out = qtensor([t, v], e)
  const s = 30 + e - dLogProbs.exp
  for (let i = 0; i < t; i++) {
    const g = dLogProbs.data[i]!
    if (g === 0) continue
    softmaxRow(logits, i, p.data)
    const row = p.data.subarray(i * v, (i + 1) * v)
    // one-hot − p, in place: the row is not read again
    for (let j = 0; j < v; j++) row[j] = (j === targets[i] ? 2 ** 30 : 0) - row[j]!
    mulRneEach(row, Int32Array.of(g), s, out.data.subarray(i * v, (i + 1) * v))
  }
  return out
}
