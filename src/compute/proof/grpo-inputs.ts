// A GRPO step's canonical inputs: the rollout batch as the step saw it (ids, targets, mask and each
// row's advantage as the fixed-point integer the step used) plus the rewards and group sizes those
// advantages came from, so that a verifier recomputes the advantages instead of taking them on trust.
// With a KL penalty, the reference policy's log-probs too: the step's input like the tokens are.
import { LOSS_EXP } from '../kernels/ref/cross-entropy.ts'
import { fromFloat, qtensor, type QTensor } from '../kernels/ref/tensor.ts'
import { ADVANTAGE_EXP, type RolloutBatch } from '../model/grpo-step.ts'
import { groupAdvantages } from '../../core/learning/grpo-advantages.ts'
import { buildRolloutBatch } from '../model/rollout-batch.ts'
import { type GroupOrigin, type TokenizedGroup } from '../../core/learning/tokenized-group.ts'
import { batchJson, intList, readBatch } from './batch-inputs.ts'
import type { Json, JsonObject } from '../../core/protocol/receipt-schema.ts'

/** What one GRPO step trains on, with where its advantages came from. */
export interface GrpoRollout {
  readonly batch: RolloutBatch
  /** each row's reward as the trainer's verifiers gave it, rows in group order */
  readonly rewards: readonly number[]
  /** completions per group: a group's rows are consecutive, groups in order */
  readonly groupSizes: readonly number[]
  /**
   * The reference policy's log-probs of every target at LOSS_EXP (tokenLogProbsOf on the reference
   * weights), for a step with a KL penalty; absent without one.
   */
  readonly refLogProbs?: QTensor
  /**
   * Each group's sender and task, for the receipt's trainedGroups (src/compute/proof/trained-groups.ts); not
   * among the step's inputs, since they do not change what it computes.
   */
  readonly origins?: readonly GroupOrigin[]
}

/**
 * The rollout of `groups` laid out as the swarm's policy does (src/compute/model/rollout-batch.ts), with their
 * origins when the groups name them (all must, or none).
 */
export function rolloutFromGroups(
  groups: readonly TokenizedGroup[],
  padId: number,
  maxSeqLen: number,
): GrpoRollout {
  const named = groups.filter((g) => g.origin).length
  if (named !== 0 && named !== groups.length)
    throw new RangeError(`${named} of ${groups.length} rollout groups name their origin: all or none must`)
  return {
    batch: buildRolloutBatch(groups, padId, maxSeqLen),
    rewards: groups.flatMap((g) => g.rewards),
    groupSizes: groups.map((g) => g.completions.length),
    ...(named > 0 ? { origins: groups.map((g) => g.origin!) } : {}),
  }
}

/** Each row's advantage as the integer at 2^ADVANTAGE_EXP that positionAdvantages gives its positions. */
export function fixedAdvantages(advantages: readonly number[]): number[] {
  return Array.from(fromFloat([advantages.length], ADVANTAGE_EXP, advantages).data)
}

/** The fixed-point advantages that the rewards give, each group normalised on its own. */
export function advantagesOfRewards(rewards: readonly number[], groupSizes: readonly number[]): number[] {
  let start = 0
  const advantages = groupSizes.flatMap((size) => groupAdvantages(rewards.slice(start, (start += size))))
  return fixedAdvantages(advantages)
}

export function grpoInputsJson(rollout: GrpoRollout): JsonObject {
  const { batch } = rollout
  return {
    ...batchJson(batch.inputs, batch.targets),
    mask: Array.from(batch.mask),
    advantages: fixedAdvantages(batch.advantages),
    rewards: [...rollout.rewards],
    groupSizes: [...rollout.groupSizes],
    ...(rollout.refLogProbs
      ? { refLogProbs: { exp: rollout.refLogProbs.exp, values: Array.from(rollout.refLogProbs.data) } }
      : {}),
  }
}

function list<T>(value: Json | undefined, what: string, length: number, ok: (v: Json) => boolean): T[] {
  if (!Array.isArray(value) || !value.every(ok))
    throw new RangeError(`inputs file: inputs.${what} is not a list of the right values`)
  if (value.length !== length)
    throw new RangeError(`inputs file: inputs.${what} has ${value.length} entries, the batch needs ${length}`)
  return value as T[]
}

/** Throws when a loss position's target is not the token after it in its row (a target the rollout never had). */
function checkTargets(batch: RolloutBatch): void {
  const { ids, seqLen } = batch.inputs
  batch.mask.forEach((m, i) => {
    if (!m) return
    const position = i % seqLen
    if (position + 1 >= seqLen || batch.targets[i] !== ids[i + 1])
      throw new RangeError(
        `inputs file: inputs.targets[${i}] (row ${Math.floor(i / seqLen)}, position ${position}) is a ` +
          'loss position whose target is not the next token of its row',
      )
  })
}

const isI32 = (v: Json) => Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) < 2 ** 31

/** The reference log-probs of the side file's inputs, when it has them: one i32 per position at LOSS_EXP. */
function readRefLogProbs(value: Json | undefined, positions: number): QTensor | undefined {
  if (value === undefined) return undefined
  const fields: JsonObject = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}
  if (fields.exp !== LOSS_EXP)
    throw new RangeError(
      `inputs file: inputs.refLogProbs must be {exp: ${LOSS_EXP}, values}, the log-probs' own exponent`,
    )
  const data = list<number>(fields.values, 'refLogProbs.values', positions, isI32)
  return qtensor([positions], LOSS_EXP, Int32Array.from(data))
}

/**
 * Reads what grpoInputsJson wrote and checks it: list lengths, targets against the ids, and the stated
 * advantages against those the rewards give (a mismatch is an `advantages:` error).
 */
export function readGrpoRollout(inputs: JsonObject): GrpoRollout {
  const { batch, targets } = readBatch(inputs)
  const positions = batch.batch * batch.seqLen
  const mask = Uint8Array.from(list<number>(inputs.mask, 'mask', positions, (v) => v === 0 || v === 1))
  const rewards = list<number>(inputs.rewards, 'rewards', batch.batch, Number.isFinite)
  const stated = Array.from(intList(inputs.advantages, 'advantages'))
  if (stated.length !== batch.batch)
    throw new RangeError(
      `inputs file: inputs.advantages has ${stated.length} entries for ${batch.batch} rows`,
    )
  const groupSizes = intList(inputs.groupSizes, 'groupSizes')
  if (groupSizes.some((n) => n < 1) || groupSizes.reduce((a, b) => a + b, 0) !== batch.batch)
    throw new RangeError(`inputs file: inputs.groupSizes must be positive and add up to ${batch.batch} rows`)
  const recomputed = advantagesOfRewards(rewards, Array.from(groupSizes))
  const row = stated.findIndex((a, i) => a !== recomputed[i])
  if (row >= 0)
    throw new RangeError(
      `advantages: row ${row} has ${stated[row]}·2^${ADVANTAGE_EXP} but the rewards of its group give ` +
        `${recomputed[row]}·2^${ADVANTAGE_EXP}`,
    )
  const refLogProbs = readRefLogProbs(inputs.refLogProbs, positions)
  const rollout = {
    batch: { inputs: batch, targets, mask, advantages: stated.map((a) => a * 2 ** ADVANTAGE_EXP) },
    rewards,
    groupSizes: Array.from(groupSizes),
    ...(refLogProbs ? { refLogProbs } : {}),
  }
  checkTargets(rollout.batch)
  return rollout
}
