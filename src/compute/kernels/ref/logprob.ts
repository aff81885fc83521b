import { magnitude, expForMagnitude } from './elementwise.ts'
import { mulRneEach } from './mul-each.ts'
import { logSoftmaxAt, softmax } from './softmax.ts'
import { assertShape, qtensor, type QTensor } from './tensor.ts'
import { scaleRowsWasm } from './wasm/elementwise-kernels.ts'

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
  const e = expForMagnitude(magnitude(dLogProbs))
  const out = qtensor([t, v], e)
  const s = 30 + e - dLogProbs.exp
  // the rows with a gradient, gathered: one softmax and one scaling for all of them
  const active = Int32Array.from(dLogProbs.data.keys()).filter((i) => dLogProbs.data[i] !== 0)
  const x = qtensor([active.length, v], logits.exp)
  active.forEach((i, r) => x.data.set(logits.data.subarray(i * v, (i + 1) * v), r * v))
  const p = softmax(x)
  // one-hot − p, in place: p is not read again
  active.forEach((i, r) => {
    const row = p.data.subarray(r * v, (r + 1) * v)
    for (let j = 0; j < v; j++) row[j] = (j === targets[i] ? 2 ** 30 : 0) - row[j]!
  })
  const g = Int32Array.from(active, (i) => dLogProbs.data[i]!)
  const scaled = new Int32Array(active.length * v)
  if (!scaleRowsWasm(p.data, g, new Int32Array(active.length).fill(s), v, scaled))
    for (let r = 0; r < active.length; r++)
      mulRneEach(
        p.data.subarray(r * v, (r + 1) * v),
        g.subarray(r, r + 1),
        s,
        scaled.subarray(r * v, (r + 1) * v),
      )
  active.forEach((i, r) => out.data.set(scaled.subarray(r * v, (r + 1) * v), i * v))
  return out
}
