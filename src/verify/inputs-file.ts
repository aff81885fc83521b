import { HASH_HEX } from './digest.ts'
import type { ChainPosition } from './hash-chain.ts'
import { RECEIPT_KINDS, type JsonObject, type ReceiptKind } from './receipt-schema.ts'
import type { TraceEntry } from './trace.ts'

/**
 * What `verify` needs besides the receipt, as a side file (`<name>.inputs.json` next to
 * `<name>.receipt.json` by default). A receipt carries hashes only, so it stays small and can be
 * gossiped and posted; the side file carries the bulk and is checked against those hashes:
 * - `checkpoint`: the weights used, as the base64 safetensors checkpoint (→ weightsHash, configHash);
 * - `optimizer`: a training step's Adam state, base64 (src/verify/optimizer-state.ts);
 * - `inputs`: the canonical inputs (→ inputHash);
 * - `chain`: the training chain position before the work (→ chainTip, chainLength);
 * - `trace`: the prover's per-op hashes (→ traceRoot), which is what lets a verifier name the first
 *   divergent op rather than only say that the roots differ;
 * - `outputs`: the prover's canonical outputs (→ outputHash), e.g. the generated tokens.
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
}

/** Where the CLI looks for a receipt's side file when --inputs is not given. */
export function defaultInputsPath(receiptPath: string): string {
  return receiptPath.endsWith('.receipt.json')
    ? receiptPath.slice(0, -'.receipt.json'.length) + '.inputs.json'
    : receiptPath.replace(/(\.json)?$/, '.inputs.json')
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Checks the side file's shape; throws a RangeError naming the offending key. */
export function parseInputsFile(value: unknown): InputsFile {
  const bad = (key: string, should: string): never => {
    throw new RangeError(`inputs file: ${key} ${should}`)
  }
  if (!isObject(value)) return bad('(file)', 'must be a JSON object')
  if (value.format !== INPUTS_FORMAT) bad('format', `must be ${INPUTS_FORMAT}`)
  if (!RECEIPT_KINDS.includes(value.kind as ReceiptKind)) bad('kind', 'must be a receipt kind')
  if (typeof value.checkpoint !== 'string') bad('checkpoint', 'must be base64 text')
  if (value.optimizer !== undefined && typeof value.optimizer !== 'string')
    bad('optimizer', 'must be base64 text')
  const chain = value.chain as Record<string, unknown> | undefined
  if (!isObject(chain) || !HASH_HEX.test(String(chain.tip)) || !Number.isInteger(chain.length))
    bad('chain', 'must be {tip, length}')
  if (!isObject(value.inputs)) bad('inputs', 'must be an object')
  const trace = value.trace
  if (
    trace !== undefined &&
    !(
      Array.isArray(trace) &&
      trace.every((e) => isObject(e) && typeof e.op === 'string' && HASH_HEX.test(String(e.hash)))
    )
  )
    bad('trace', 'must be a list of {op, hash}')
  if (value.outputs !== undefined && !isObject(value.outputs)) bad('outputs', 'must be an object')
  return value as unknown as InputsFile
}
