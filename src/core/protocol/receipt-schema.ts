import * as z from 'zod'
import { firstIssue, withJsonSchema } from './schema.ts'
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

/** One group a GRPO step trained on: who sent it and rolloutGroupHash of it as trained (src/core/learning/group-hash.ts). */
export interface TrainedGroup {
  /** the sender's peer id (a peer's own groups: its own) */
  readonly from: string
  readonly hash: string
}

/** Everything receiptHash covers (issue 3, item 7). */
export interface ReceiptBody {
  readonly version: 1
  readonly kind: ReceiptKind
  readonly modelId: string
  readonly configHash: string
  /** The weights the work read: SHA-256 of their checkpoint file (src/compute/model/checkpoint.ts). */
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
  /**
   * GRPO steps only: one entry per group of the batch, in batch order. Absent on steps whose groups had
   * no named sender and task (and on receipts made before the field), which then hash as they did.
   */
  readonly trainedGroups?: readonly TrainedGroup[]
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
  'trainedGroups',
  'traceRoot',
  'chainTip',
  'chainLength',
  'peerId',
] as const satisfies readonly (keyof ReceiptBody)[]

/** Why a receipt failed, naming the field (or the first divergent op in `divergence`). */
export interface Failure {
  readonly field: string
  readonly message: string
}

/** `field must be…` when the field is there and wrong, `field is missing` when it is not there. */
const fieldError = (field: string, should: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is missing` : `${field} ${should}`

const hash = (field: string) => {
  const error = fieldError(field, 'must be 64 lowercase hex digits')
  return z.string({ error }).check(z.regex(HASH_HEX, { error }))
}
const count = (field: string) => {
  const error = fieldError(field, 'must be a count')
  return z.int({ error }).check(z.gte(0, { error }))
}
const oneOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: fieldError(field, `must be one of ${values.join(', ')}`) })
const jsonObject = (field: string) =>
  z.record(z.string(), z.unknown(), { error: fieldError(field, 'must be an object') })
const seedError = fieldError('seed', 'must be null or two u32 words')
const u32 = z
  .int({ error: seedError })
  .check(z.gte(0, { error: seedError }), z.lte(2 ** 32 - 1, { error: seedError }))

const trainedGroupError = fieldError(
  'trainedGroups',
  'must be a list of {from: peer id, hash: 64 hex digits}',
)

const receiptFields = {
  version: z.literal(1, { error: fieldError('version', 'must be 1') }),
  kind: oneOf('kind', RECEIPT_KINDS),
  modelId: z
    .string({ error: fieldError('modelId', 'must be a non-empty string') })
    .check(z.minLength(1, { error: fieldError('modelId', 'must be a non-empty string') })),
  configHash: hash('configHash'),
  weightsHash: hash('weightsHash'),
  kernelsHash: hash('kernelsHash'),
  opSet: oneOf('opSet', OP_SETS),
  inputHash: hash('inputHash'),
  params: jsonObject('params'),
  paramsHash: hash('paramsHash'),
  seed: z
    .nullable(z.tuple([u32, u32], { error: seedError }))
    .check(z.describe('Philox key words, or null for work that draws no random numbers')),
  outputHash: hash('outputHash'),
  tokenCount: z.optional(count('tokenCount')),
  finishReason: z.optional(oneOf('finishReason', FINISH_REASONS)),
  trainedGroups: z.optional(
    z.array(
      z.strictObject(
        {
          from: z.string({ error: trainedGroupError }).check(z.minLength(1, { error: trainedGroupError })),
          hash: z.string({ error: trainedGroupError }).check(z.regex(HASH_HEX, { error: trainedGroupError })),
        },
        { error: trainedGroupError },
      ),
      { error: trainedGroupError },
    ),
  ),
  traceRoot: hash('traceRoot'),
  chainTip: hash('chainTip'),
  chainLength: count('chainLength'),
  peerId: z
    .string({ error: fieldError('peerId', 'must be a peer id') })
    .check(z.minLength(1, { error: fieldError('peerId', 'must be a peer id') })),
  receiptHash: hash('receiptHash'),
  signature: z
    .string({ error: fieldError('signature', 'must be hex') })
    .check(z.regex(/^([0-9a-f]{2})+$/, { error: fieldError('signature', 'must be hex') })),
  info: z.optional(jsonObject('info')),
} satisfies Record<(typeof BODY_FIELDS)[number] | 'receiptHash' | 'signature' | 'info', z.ZodType>

const TOKEN_FIELDS = ['tokenCount', 'finishReason'] as const

/**
 * A receipt file's shape: the hashed fields, receiptHash, signature, and optional info; tokenCount and
 * finishReason belong to generation receipts and to them only, trainedGroups to grpo-step receipts. Whether the hashes and the signature
 * are right is for verification (src/core/protocol/receipt.ts), not for the shape.
 */
export const RECEIPT_SCHEMA = withJsonSchema(
  z
    .strictObject(receiptFields, {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `${issue.keys[0]} is not a receipt field`
          : 'a receipt is a JSON object',
    })
    .check(
      z.superRefine((receipt, ctx) => {
        const generation = receipt.kind === 'generation'
        for (const field of TOKEN_FIELDS) {
          const present = receipt[field] !== undefined
          if (generation && !present)
            ctx.addIssue({ code: 'custom', path: [field], message: `${field} is missing` })
          if (!generation && present)
            ctx.addIssue({
              code: 'custom',
              path: [field],
              message: `${field} belongs to generation receipts only, this one is ${receipt.kind}`,
            })
        }
        if (receipt.trainedGroups !== undefined && receipt.kind !== 'grpo-step')
          ctx.addIssue({
            code: 'custom',
            path: ['trainedGroups'],
            message: `trainedGroups belongs to grpo-step receipts only, this one is ${receipt.kind}`,
          })
      }),
    ),
  {
    description:
      'the shape only: receiptHash, the signature and every hash are checked by verification (src/core/protocol/receipt.ts, verify.ts)',
    if: { properties: { kind: { const: 'generation' } } },
    then: { required: [...TOKEN_FIELDS] },
    else: { not: { anyOf: TOKEN_FIELDS.map((f) => ({ required: [f] })) } },
    allOf: [
      {
        if: { properties: { kind: { not: { const: 'grpo-step' } } } },
        then: { not: { required: ['trainedGroups'] } },
      },
    ],
  },
)

/** The first schema violation of a parsed receipt file, or undefined when it has the receipt's shape. */
export function schemaFailure(value: unknown): Failure | undefined {
  const result = RECEIPT_SCHEMA.safeParse(value)
  if (result.success) return undefined
  const issue = firstIssue(result.error)
  const field = issue.code === 'unrecognized_keys' ? issue.keys[0]! : String(issue.path[0] ?? '(file)')
  return { field, message: issue.message }
}
