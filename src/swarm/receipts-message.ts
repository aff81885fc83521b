// The receipts message: a peer's signed receipt for a round's training step, published on the receipts
// topic so anyone can check it and, with its side file, re-execute it. The side file (weights, optimizer
// state, rollout) travels along only when the whole message still fits the topic's size cap; a verifier
// otherwise asks the peer for it.
import { parseInputsFile, type InputsFile } from '../verify/inputs-file.ts'
import { schemaFailure, type Receipt } from '../verify/receipt-schema.ts'
import { MAX_MESSAGE_BYTES } from './topics.ts'

export interface ReceiptsBody {
  receipt: Receipt
  inputs?: InputsFile
}

/**
 * Room left for the envelope around a body (version, swarm id, round, sender, time, kind): under 400
 * bytes with the longest ids the envelope accepts.
 */
export const ENVELOPE_ALLOWANCE = 512

const byteLength = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length

/** The body to publish: the receipt, and its side file when the message stays within the topic's cap. */
export function makeReceiptsBody(receipt: Receipt, inputs: InputsFile | undefined): ReceiptsBody {
  const cap = MAX_MESSAGE_BYTES.receipts - ENVELOPE_ALLOWANCE
  if (inputs && byteLength({ receipt, inputs }) <= cap) return { receipt, inputs }
  if (byteLength({ receipt }) > cap)
    throw new RangeError(`a receipt of ${byteLength({ receipt })} bytes does not fit a receipts message`)
  return { receipt }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Checks an untrusted receipts body from `from` (the gossipsub signer); returns it typed, or a sentence
 * saying what is wrong. The receipt must be signed by its sender: its peerId is the signer's. The
 * signature itself is checked by whoever validates the receipt (src/verify/receipt.ts, async).
 */
export function validateReceiptsBody(body: unknown, from: string): ReceiptsBody | string {
  if (!isObject(body)) return 'receipts body is not an object'
  const extra = Object.keys(body).find((k) => k !== 'receipt' && k !== 'inputs')
  if (extra !== undefined) return `receipts body has an unknown field ${JSON.stringify(extra)}`
  const failure = schemaFailure(body.receipt)
  if (failure) return `receipt: ${failure.message}`
  const receipt = body.receipt as Receipt
  if (receipt.peerId !== from) return `the receipt is ${receipt.peerId}'s, not its sender's`
  if (body.inputs === undefined) return { receipt }
  try {
    return { receipt, inputs: parseInputsFile(body.inputs) }
  } catch (error) {
    return (error as Error).message
  }
}
