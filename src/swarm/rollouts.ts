// The rollouts message: groups of G completions of one task each, as the sender generated and scored
// them, batched so a peer sends few large messages per round. Receivers regenerate each task from its
// ref, check the claimed id, and re-score every completion with their own verifiers.
import { parseTaskRef, type TaskRef } from './task-ref.ts'

export interface RolloutCompletion {
  text: string
  /** the completion's token ids in the swarm model's tokenizer (what the trainer learns from) */
  tokenIds: number[]
}

export interface RolloutGroup {
  /** hex SHA-256 task id (src/tasks/task-id.ts), as the sender computed it */
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

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const isTokenId = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_TOKEN_ID

function parseCompletion(value: unknown): RolloutCompletion | string {
  if (!isObject(value)) return 'completion is not an object'
  const { text, tokenIds } = value
  if (typeof text !== 'string' || text.length > MAX_COMPLETION_CHARS)
    return `completion text must be a string of at most ${MAX_COMPLETION_CHARS} characters`
  if (!Array.isArray(tokenIds) || tokenIds.length > MAX_COMPLETION_TOKENS || !tokenIds.every(isTokenId))
    return `completion tokenIds must be at most ${MAX_COMPLETION_TOKENS} token ids`
  return { text, tokenIds: tokenIds as number[] }
}

function parseGroup(value: unknown, groupSize: number): RolloutGroup | string {
  if (!isObject(value)) return 'group is not an object'
  const { taskId, task, completions, rewards, policyVersion } = value
  if (typeof taskId !== 'string' || !/^[0-9a-f]{64}$/.test(taskId)) return 'taskId must be 64 hex digits'
  const ref = parseTaskRef(task)
  if (typeof ref === 'string') return ref
  if (!Array.isArray(completions) || completions.length !== groupSize)
    return `a group must hold exactly ${groupSize} completions`
  const parsed: RolloutCompletion[] = []
  for (const c of completions) {
    const completion = parseCompletion(c)
    if (typeof completion === 'string') return completion
    parsed.push(completion)
  }
  if (
    !Array.isArray(rewards) ||
    rewards.length !== groupSize ||
    !rewards.every((r) => typeof r === 'number' && Number.isFinite(r))
  )
    return `a group must hold ${groupSize} finite rewards`
  if (typeof policyVersion !== 'number' || !Number.isSafeInteger(policyVersion) || policyVersion < 0)
    return 'policyVersion must be a non-negative integer'
  return { taskId, task: ref, completions: parsed, rewards: rewards as number[], policyVersion }
}

/** Checks an untrusted rollouts body; returns it typed, or a sentence saying what is wrong. */
export function validateRolloutsBody(body: unknown, groupSize: number): RolloutsBody | string {
  if (!isObject(body)) return 'rollouts body is not an object'
  const { groups } = body
  if (!Array.isArray(groups) || groups.length === 0 || groups.length > MAX_GROUPS_PER_MESSAGE)
    return `a rollouts message holds 1–${MAX_GROUPS_PER_MESSAGE} groups`
  const parsed: RolloutGroup[] = []
  for (const g of groups) {
    const group = parseGroup(g, groupSize)
    if (typeof group === 'string') return group
    parsed.push(group)
  }
  const ids = new Set(parsed.map((g) => g.taskId))
  if (ids.size !== parsed.length) return 'a task appears twice in one message'
  return { groups: parsed }
}
