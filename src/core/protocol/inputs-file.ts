import * as z from 'zod'
import { firstIssue } from './schema.ts'
import { HASH_HEX } from './digest.ts'
import type { ChainPosition } from './hash-chain.ts'
import { RECEIPT_KINDS, type JsonObject, type ReceiptKind } from './receipt-schema.ts'

/** One op of a trace: its name and the hash of its output tensor's canonical bytes. */
export interface TraceEntry {
  readonly op: string
  readonly hash: string
}

/**
 * What `verify` needs besides the receipt, as a side file (`<name>.inputs.json` next to
 * `<name>.receipt.json` by default). A receipt carries hashes only, so it stays small and can be
 * gossiped and posted; the side file carries the bulk and is checked against those hashes:
 * - `checkpoint`: the weights used, as the base64 safetensors checkpoint (→ weightsHash, configHash);
 * - `optimizer`: a training step's Adam state, base64 (src/compute/proof/optimizer-state.ts);
 * - `inputs`: the canonical inputs (→ inputHash);
 * - `chain`: the training chain position before the work (→ chainTip, chainLength);
 * - `trace`: the prover's per-op hashes (→ traceRoot), which is what lets a verifier name the first
 *   divergent op rather than only say that the roots differ;
 * - `outputs`: the prover's canonical outputs (→ outputHash), e.g. the generated tokens;
 * - `groupTasks`: a GRPO step's task id of each group, in batch order: with the rows' completion tokens
 *   they open the receipt's trainedGroups hashes (outside inputHash: which task a row came from does not
 *   change the step, and two peers training the same rows still reach the same chain tip).
 */
export const INPUTS_FORMAT = 'tabswarm-receipt-inputs-v1'

export interface InputsFile {
  readonly format: typeof INPUTS_FORMAT
  readonly kind: ReceiptKind
  readonly checkpoint: string
  readonly optimizer?: string
  readonly chain: ChainPosition
  readonly inputs: JsonObject
  readonly trace?: readonly TraceEntry[]
  readonly outputs?: JsonObject
  readonly groupTasks?: readonly string[]
}

/** Where the CLI looks for a receipt's side file when --inputs is not given. */
export function defaultInputsPath(receiptPath: string): string {
  return receiptPath.endsWith('.receipt.json')
    ? receiptPath.slice(0, -'.receipt.json'.length) + '.inputs.json'
    : receiptPath.replace(/(\.json)?$/, '.inputs.json')
}

const inputsError = (key: string, should: string) => `inputs file: ${key} ${should}`
const base64 = (key: string) => z.string({ error: inputsError(key, 'must be base64 text') })
const object = (key: string) =>
  z.record(z.string(), z.unknown(), { error: inputsError(key, 'must be an object') })

const chainError = inputsError('chain', 'must be {tip, length}')
const traceError = inputsError('trace', 'must be a list of {op, hash}')
const groupTasksError = inputsError('groupTasks', 'must be a list of task ids (64 hex digits)')

/** The side file's shape; whether its contents match the receipt's hashes is for verification. */
export const INPUTS_FILE_SCHEMA = z.object(
  {
    format: z.literal(INPUTS_FORMAT, { error: inputsError('format', `must be ${INPUTS_FORMAT}`) }),
    kind: z.enum(RECEIPT_KINDS, { error: inputsError('kind', 'must be a receipt kind') }),
    checkpoint: base64('checkpoint'),
    optimizer: z.optional(base64('optimizer')),
    chain: z.object(
      {
        tip: z.string({ error: chainError }).check(z.regex(HASH_HEX, { error: chainError })),
        length: z.int({ error: chainError }),
      },
      { error: chainError },
    ),
    inputs: object('inputs'),
    trace: z.optional(
      z.array(
        z.object(
          {
            op: z.string({ error: traceError }),
            hash: z.string({ error: traceError }).check(z.regex(HASH_HEX, { error: traceError })),
          },
          { error: traceError },
        ),
        { error: traceError },
      ),
    ),
    outputs: z.optional(object('outputs')),
    groupTasks: z.optional(
      z.array(z.string({ error: groupTasksError }).check(z.regex(HASH_HEX, { error: groupTasksError })), {
        error: groupTasksError,
      }),
    ),
  },
  { error: inputsError('(file)', 'must be a JSON object') },
)

/** Checks the side file's shape; throws a RangeError naming the offending key. */
export function parseInputsFile(value: unknown): InputsFile {
  const result = INPUTS_FILE_SCHEMA.safeParse(value)
  if (!result.success) throw new RangeError(firstIssue(result.error).message)
  // the checked value itself, not zod's copy: a side file's unknown keys are kept, as before
  return value as InputsFile
}
