// A grpo-step receipt's trainedGroups: which groups the step trained on, each as its sender and
// rolloutGroupHash of the group as trained — its task id and the completion tokens its rows learn
// (the masked targets of the group's consecutive rows, so a completion cut at the context hashes as
// cut). The builder and the verifier both derive the hashes from the rollout batch itself, so a
// receipt can only name groups whose tokens its inputs hold.
import { rolloutGroupHash } from '../../core/learning/group-hash.ts'
import type { GroupOrigin } from '../../core/learning/tokenized-group.ts'
import type { GrpoRollout } from './grpo-inputs.ts'
import type { Failure, TrainedGroup } from '../../core/protocol/receipt-schema.ts'

/** Each group's completions as the step trained them: per row, the targets at its loss positions. */
export function trainedCompletions(rollout: GrpoRollout): number[][][] {
  const { batch, groupSizes } = rollout
  const { seqLen } = batch.inputs
  let row = 0
  return groupSizes.map((size) =>
    Array.from({ length: size }, () => {
      const base = row++ * seqLen
      const tokens: number[] = []
      for (let i = 0; i < seqLen; i++) if (batch.mask[base + i]) tokens.push(batch.targets[base + i]!)
      return tokens
    }),
  )
}

/** rolloutGroupHash of each group as trained, `taskIds` giving each group's task (one per group). */
export function trainedGroupHashes(rollout: GrpoRollout, taskIds: readonly string[]): string[] {
  if (taskIds.length !== rollout.groupSizes.length)
    throw new RangeError(`${taskIds.length} task ids for ${rollout.groupSizes.length} groups`)
  return trainedCompletions(rollout).map((completions, g) =>
    rolloutGroupHash({ taskId: taskIds[g]!, completions: completions.map((tokenIds) => ({ tokenIds })) }),
  )
}

/** The receipt's trainedGroups of a step on groups of these origins (one per group, in batch order). */
export function trainedGroupsOf(rollout: GrpoRollout, origins: readonly GroupOrigin[]): TrainedGroup[] {
  const hashes = trainedGroupHashes(
    rollout,
    origins.map((o) => o.taskId),
  )
  return origins.map((o, g) => ({ from: o.from, hash: hashes[g]! }))
}

const short = (hash: string) => hash.slice(0, 12)

/**
 * Why a receipt's trainedGroups disagree with the step's rows and the side file's group tasks, or
 * undefined when they agree. A receipt without trainedGroups claims nothing (receipts made before the
 * field); one with them must list every group, and each hash must open to its group's rows.
 */
export function trainedGroupsFailure(
  claimed: readonly TrainedGroup[] | undefined,
  rollout: GrpoRollout,
  groupTasks: readonly string[] | undefined,
): Failure | undefined {
  if (claimed === undefined) return undefined
  const groups = rollout.groupSizes.length
  if (claimed.length !== groups)
    return {
      field: 'trainedGroups',
      message: `trainedGroups lists ${claimed.length} groups, the step trained ${groups} (inputs.groupSizes)`,
    }
  if (groupTasks === undefined)
    return {
      field: 'inputs',
      message: "inputs file: groupTasks is missing: the receipt's trainedGroups hash each group's task id",
    }
  if (groupTasks.length !== groups)
    return {
      field: 'inputs',
      message: `inputs file: groupTasks has ${groupTasks.length} task ids for ${groups} groups`,
    }
  const hashes = trainedGroupHashes(rollout, groupTasks)
  const g = claimed.findIndex((entry, i) => entry.hash !== hashes[i])
  if (g < 0) return undefined
  const first = rollout.groupSizes.slice(0, g).reduce((a, b) => a + b, 0)
  return {
    field: 'trainedGroups',
    message:
      `trainedGroups: group ${g} (from ${claimed[g]!.from}) has hash ${short(claimed[g]!.hash)}, but task ` +
      `${short(groupTasks[g]!)} with the completion tokens of rows ${first}–${first + rollout.groupSizes[g]! - 1} ` +
      `gives ${short(hashes[g]!)}`,
  }
}
