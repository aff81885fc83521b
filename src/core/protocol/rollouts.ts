// The rollouts message: groups of G completions of one task each, as the sender generated and scored
// them, batched so a peer sends few large messages per round. Receivers regenerate each task from its
// ref, check the claimed id, and re-score every completion with their own verifiers.
import * as z from 'zod'
import { checked, denseArrayOf, intIn, predicate, stringOf } from './schema.ts'
import { MAX_GROUP_SIZE } from '../learning/learning-config.ts'
import { TASK_REF_SCHEMA, type TaskRef } from './task-ref.ts'

export interface RolloutCompletion {
  text: string
  /** the completion's token ids in the swarm model's tokenizer (what the trainer learns from) */
  tokenIds: number[]
}

export interface RolloutGroup {
  /** hex SHA-256 task id (src/core/tasks/task-id.ts), as the sender computed it */
  taskId: string
  task: TaskRef
  /** exactly the swarm's G */
  completions: RolloutCompletion[]
  /** the sender's reward totals, one per completion (informational: receivers re-score) */
  rewards: number[]
  /** how many training steps the sender's weights had taken when it sampled */
  policyVersion: number
}

export interface RolloutsBody {
  groups: RolloutGroup[]
}

/** Groups per message: a peer's whole round (a few tasks) fits in one message. */
export const MAX_GROUPS_PER_MESSAGE = 16
/** Longest completion text accepted (characters); the size cap of the topic bounds the total anyway. */
export const MAX_COMPLETION_CHARS = 8192
/** Longest completion accepted, in tokens. */
export const MAX_COMPLETION_TOKENS = 2048
/** Token ids are below 2^24 (Qwen2's vocabulary is ~152k). */
export const MAX_TOKEN_ID = 2 ** 24 - 1

const isTokenId = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_TOKEN_ID

/** Token ids are the bulk of a message (tens of thousands): one predicate, not a schema per id. */
const TOKEN_IDS = predicate(
  denseArrayOf(isTokenId, { max: MAX_COMPLETION_TOKENS }),
  `completion tokenIds must be at most ${MAX_COMPLETION_TOKENS} token ids`,
  {
    type: 'array',
    maxItems: MAX_COMPLETION_TOKENS,
    items: { type: 'integer', minimum: 0, maximum: MAX_TOKEN_ID },
  },
)

const COMPLETION = z.object(
  {
    text: stringOf(
      0,
      MAX_COMPLETION_CHARS,
      `completion text must be a string of at most ${MAX_COMPLETION_CHARS} characters`,
    ),
    tokenIds: TOKEN_IDS,
  },
  { error: 'completion is not an object' },
)

/**
 * `groupSize`: the swarm's G, or the range every swarm config allows (what docs/schema publishes,
 * since G is a per-swarm setting: a receiver holds a group to its own swarm's G).
 */
function rolloutsBodySchema(groupSize: number | { min: number; max: number }) {
  const { min, max } = typeof groupSize === 'number' ? { min: groupSize, max: groupSize } : groupSize
  const gIs = min === max ? `exactly ${min}` : `the swarm's G (${min}–${max}) of`
  const completions = `a group must hold ${gIs} completions`
  const rewards = `a group must hold ${min === max ? min : "the swarm's G"} finite rewards`
  const policyVersion = 'policyVersion must be a non-negative integer'
  const group = z.object(
    {
      taskId: z
        .string({ error: 'taskId must be 64 hex digits' })
        .check(z.regex(/^[0-9a-f]{64}$/, { error: 'taskId must be 64 hex digits' })),
      task: TASK_REF_SCHEMA,
      completions: z
        .array(COMPLETION, { error: completions })
        .check(
          z.minLength(min, { error: completions }),
          z.maxLength(max, { error: completions }),
          z.describe("exactly the swarm's G (learning.groupSize) completions: checked at runtime"),
        ),
      rewards: z
        .array(z.number({ error: rewards }), { error: rewards })
        .check(
          z.minLength(min, { error: rewards }),
          z.maxLength(max, { error: rewards }),
          z.describe(
            "the sender's reward per completion, exactly G of them, each finite: checked at runtime",
          ),
        ),
      policyVersion: intIn(0, Number.MAX_SAFE_INTEGER, policyVersion),
    },
    { error: 'group is not an object' },
  )
  const groups = `a rollouts message holds 1–${MAX_GROUPS_PER_MESSAGE} groups`
  return z.object(
    {
      groups: z.array(group, { error: groups }).check(
        z.minLength(1, { error: groups }),
        z.maxLength(MAX_GROUPS_PER_MESSAGE, { error: groups }),
        z.refine((gs) => new Set(gs.map((g) => g.taskId)).size === gs.length, {
          error: 'a task appears twice in one message',
        }),
        z.describe('no two groups share a taskId (checked at runtime only)'),
      ),
    },
    { error: 'rollouts body is not an object' },
  )
}

/** Every rollouts body a swarm config could allow, for docs/schema. */
export const ROLLOUTS_BODY_SCHEMA = rolloutsBodySchema({ min: 2, max: MAX_GROUP_SIZE })

const bodySchemaForG = new Map<number, ReturnType<typeof rolloutsBodySchema>>()

/** Checks an untrusted rollouts body; returns it typed, or a sentence saying what is wrong. */
export function validateRolloutsBody(body: unknown, groupSize: number): RolloutsBody | string {
  let schema = bodySchemaForG.get(groupSize)
  if (schema === undefined) bodySchemaForG.set(groupSize, (schema = rolloutsBodySchema(groupSize)))
  return checked(schema, body)
}
