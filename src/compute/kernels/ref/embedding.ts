import { ceilLog2, rne, sat32 } from './rounding.ts'
import { expForMagnitude, magnitude } from './elementwise.ts'
import { qtensor, type QTensor } from './tensor.ts'

function checkIds(ids: Int32Array, vocab: number): void {
  for (const id of ids)
    if (id < 0 || id >= vocab) throw new RangeError(`token id ${id} outside vocabulary of ${vocab}`)
}

/** Rows of table [V, D] for each id: [T, D], exact (same exponent). */
export function embeddingGather(table: QTensor, ids: Int32Array): QTensor {
  const [v, d] = [table.shape[0]!, table.shape[1]!]
  checkIds(ids, v)
  const out = qtensor([ids.length, d], table.exp)
  ids.forEach((id, t) => out.data.set(table.data.subarray(id * d, (id + 1) * d), t * d))
  return out
}

/**
 * Gradient of the gather: dTable[id] += dOut[t] for every position. The sums are exact (at most 2^22
 * rows of i32), so the result is independent of the order a GPU's atomics would add them in; one
 * rounding to the bound exponent max|dOut|·T follows.
 */
export function embeddingScatterAdd(dOut: QTensor, ids: Int32Array, vocab: number): QTensor {
  checkIds(ids, vocab)
  const d = dOut.shape[1]!
  const sums = new Float64Array(vocab * d)
  ids.forEach((id, t) => {
    for (let j = 0; j < d; j++) sums[id * d + j]! += dOut.data[t * d + j]!
  })
  const e = Math.max(dOut.exp, expForMagnitude(magnitude(dOut) + ceilLog2(Math.max(ids.length, 1))))
  const out = qtensor([vocab, d], e)
  for (let k = 0; k < sums.length; k++) out.data[k] = sat32(rne(sums[k]!, e - dOut.exp))
  return out
}
