// The token batch of a training receipt's canonical inputs, written by the prover and read back by the
// verifier: `ids` and `targets` row-major, `batch` rows of `seqLen` positions.
import type { Batch } from '../model/forward.ts'
import type { Json, JsonObject } from '../../core/protocol/receipt-schema.ts'

/** A list of integers from the side file's inputs; throws a RangeError naming the key. */
export function intList(value: Json | undefined, what: string): Int32Array {
  if (!Array.isArray(value) || !value.every((v) => Number.isInteger(v)))
    throw new RangeError(`inputs file: inputs.${what} must be a list of integers`)
  return Int32Array.from(value as number[])
}

export function batchJson(batch: Batch, targets: Int32Array): JsonObject {
  return {
    ids: Array.from(batch.ids),
    batch: batch.batch,
    seqLen: batch.seqLen,
    targets: Array.from(targets),
  }
}

const isCount = (v: Json | undefined): v is number => Number.isInteger(v) && (v as number) > 0

/** Reads what batchJson wrote, checking that every list has one entry per position. */
export function readBatch(inputs: JsonObject): { readonly batch: Batch; readonly targets: Int32Array } {
  if (!isCount(inputs.batch) || !isCount(inputs.seqLen))
    throw new RangeError('inputs file: inputs.batch and inputs.seqLen must be positive integers')
  const positions = inputs.batch * inputs.seqLen
  const ids = intList(inputs.ids, 'ids')
  const targets = intList(inputs.targets, 'targets')
  for (const [what, list] of [
    ['ids', ids],
    ['targets', targets],
  ] as const)
    if (list.length !== positions)
      throw new RangeError(
        `inputs file: inputs.${what} has ${list.length} entries for ${inputs.batch}×${inputs.seqLen} positions`,
      )
  return { batch: { ids, batch: inputs.batch, seqLen: inputs.seqLen }, targets }
}
