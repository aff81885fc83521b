// The receipts message: a peer's signed receipt for a round's training step, published on the receipts
// topic so anyone can check it and, with its side file, re-execute it. The side file (weights, optimizer
// state, rollout) travels along only when the whole message still fits the topic's size cap; a verifier
// otherwise asks the peer for it.
import * as z from 'zod'
import { firstIssue } from './schema.ts'
import { INPUTS_FILE_SCHEMA, type InputsFile } from './inputs-file.ts'
import { RECEIPT_SCHEMA, type Receipt } from './receipt-schema.ts'
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

/**
 * A receipts body: a receipt and, optionally, its side file. That the receipt is its sender's (peerId
 * is the gossipsub signer) and that its signature holds are rules of the runtime (validateReceiptsBody,
 * src/core/protocol/receipt.ts), not of the shape.
 */
export const RECEIPTS_BODY_SCHEMA = z
  .strictObject(
    {
      receipt: RECEIPT_SCHEMA,
      inputs: z.optional(INPUTS_FILE_SCHEMA),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `receipts body has an unknown field ${JSON.stringify(issue.keys[0])}`
          : 'receipts body is not an object',
    },
  )
  .check(
    z.describe(
      "checked at runtime too: the receipt's peerId is the message's sender, and its signature holds (src/core/protocol/receipt.ts)",
    ),
  )

/**
 * Checks an untrusted receipts body from `from` (the gossipsub signer); returns it typed, or a sentence
 * saying what is wrong. The receipt must be signed by its sender: its peerId is the signer's. The
 * signature itself is checked by whoever validates the receipt (src/core/protocol/receipt.ts, async).
 */
export function validateReceiptsBody(body: unknown, from: string): ReceiptsBody | string {
  const result = RECEIPTS_BODY_SCHEMA.safeParse(body)
  if (!result.success) {
    const issue = firstIssue(result.error)
    return issue.path[0] === 'receipt' ? `receipt: ${issue.message}` : issue.message
  }
  // the values as sent, not zod's copies: a receipt's bytes are what its hash and signature cover
  const { receipt, inputs } = body as ReceiptsBody
  if (receipt.peerId !== from) return `the receipt is ${receipt.peerId}'s, not its sender's`
  return inputs === undefined ? { receipt } : { receipt, inputs }
}
