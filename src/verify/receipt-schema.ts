import { HASH_HEX } from './digest.ts'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

export const RECEIPT_KINDS = [
  'generation',
  'training-step',
  'grpo-step',
  'training-run',
  'evaluation',
] as const
export type ReceiptKind = (typeof RECEIPT_KINDS)[number]

/** The kinds whose work changes the weights: each such receipt extends the weights' step-hash chain. */
export const TRAINING_STEP_KINDS: readonly ReceiptKind[] = ['training-step', 'grpo-step']

export const extendsChain = (kind: unknown): boolean => TRAINING_STEP_KINDS.includes(kind as ReceiptKind)

/** `reproducible`: integer kernels, same bits everywhere; `deterministic`: same bits on one backend. */
export const OP_SETS = ['reproducible', 'deterministic'] as const
export type OpSet = (typeof OP_SETS)[number]

export const FINISH_REASONS = ['eos_token', 'max_length'] as const
export type FinishReason = (typeof FINISH_REASONS)[number]

/** Everything receiptHash covers (issue 3, item 7). */
export interface ReceiptBody {
  readonly version: 1
  readonly kind: ReceiptKind
  readonly modelId: string
  readonly configHash: string
  /** The weights the work read: SHA-256 of their checkpoint file (src/model/checkpoint.ts). */
  readonly weightsHash: string
  readonly kernelsHash: string
  readonly opSet: OpSet
  readonly inputHash: string
  readonly params: JsonObject
  readonly paramsHash: string
  /** Philox key words; null for work that draws no random numbers. */
  readonly seed: readonly [number, number] | null
  readonly outputHash: string
  /** Generations only. */
  readonly tokenCount?: number
  readonly finishReason?: FinishReason
  readonly traceRoot: string
  readonly chainTip: string
  readonly chainLength: number
  readonly peerId: string
}

export interface Receipt extends ReceiptBody {
  /** SHA-256 of the RFC 8785 JSON of the ReceiptBody fields. */
  readonly receiptHash: string
  /** The peer key's signature (hex) over "tabswarm-receipt-v1:" ‖ receiptHash bytes. */
  readonly signature: string
  /** Device, browser, timings: informative, outside the hash. */
  readonly info?: JsonObject
}

/** The hashed fields in the order validation reports them. */
export const BODY_FIELDS = [
  'version',
  'kind',
  'modelId',
  'configHash',
  'weightsHash',
  'kernelsHash',
  'opSet',
  'inputHash',
  'params',
  'paramsHash',
  'seed',
  'outputHash',
  'tokenCount',
  'finishReason',
  'traceRoot',
  'chainTip',
  'chainLength',
  'peerId',
] as const satisfies readonly (keyof ReceiptBody)[]

const RECEIPT_FIELDS: readonly string[] = [...BODY_FIELDS, 'receiptHash', 'signature', 'info']

/** Why a receipt failed, naming the field (or the first divergent op in `divergence`). */
export interface Failure {
  readonly field: string
  readonly message: string
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const isU32 = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < 2 ** 32
const isHash = (v: unknown) => typeof v === 'string' && HASH_HEX.test(v)
const oneOf = (values: readonly string[]) => (v: unknown) => values.includes(v as string)

/** Per-field shape checks; each returns what the field should be when it is not. */
const FIELD_CHECKS: Record<string, [(v: unknown) => boolean, string]> = {
  version: [(v) => v === 1, 'must be 1'],
  kind: [oneOf(RECEIPT_KINDS), `must be one of ${RECEIPT_KINDS.join(', ')}`],
  modelId: [(v) => typeof v === 'string' && v.length > 0, 'must be a non-empty string'],
  opSet: [oneOf(OP_SETS), `must be one of ${OP_SETS.join(', ')}`],
  params: [isObject, 'must be an object'],
  seed: [
    (v) => v === null || (Array.isArray(v) && v.length === 2 && v.every(isU32)),
    'must be null or two u32 words',
  ],
  tokenCount: [(v) => Number.isInteger(v) && (v as number) >= 0, 'must be a count'],
  finishReason: [oneOf(FINISH_REASONS), `must be one of ${FINISH_REASONS.join(', ')}`],
  chainLength: [(v) => Number.isInteger(v) && (v as number) >= 0, 'must be a count'],
  peerId: [(v) => typeof v === 'string' && v.length > 0, 'must be a peer id'],
  signature: [(v) => typeof v === 'string' && /^([0-9a-f]{2})+$/.test(v), 'must be hex'],
  info: [isObject, 'must be an object'],
}
for (const field of ['configHash', 'weightsHash', 'kernelsHash', 'inputHash', 'paramsHash', 'outputHash'])
  FIELD_CHECKS[field] = [isHash, 'must be 64 lowercase hex digits']
for (const field of ['traceRoot', 'chainTip', 'receiptHash'])
  FIELD_CHECKS[field] = [isHash, 'must be 64 lowercase hex digits']

/** The first schema violation of a parsed receipt file, or undefined when it has the receipt's shape. */
export function schemaFailure(value: unknown): Failure | undefined {
  if (!isObject(value)) return { field: '(file)', message: 'a receipt is a JSON object' }
  for (const key of Object.keys(value))
    if (!RECEIPT_FIELDS.includes(key)) return { field: key, message: `${key} is not a receipt field` }
  // token fields belong to generations and nothing else
  const generation = value.kind === 'generation'
  for (const field of RECEIPT_FIELDS) {
    const present = value[field] !== undefined
    const tokenField = field === 'tokenCount' || field === 'finishReason'
    const required = field !== 'info' && (!tokenField || generation)
    if (!present && required) return { field, message: `${field} is missing` }
    if (present && !generation && tokenField)
      return {
        field,
        message: `${field} belongs to generation receipts only, this one is ${String(value.kind)}`,
      }
    const [ok, should] = FIELD_CHECKS[field]!
    if (present && !ok(value[field])) return { field, message: `${field} ${should}` }
  }
  return undefined
}
