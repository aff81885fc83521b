// A rollout group's identity as trained: its task id and each completion's token ids, hashed the way
// the project hashes structured data (SHA-256 of RFC 8785 JSON). A grpo-step receipt lists one per
// trained group, so anyone holding a sender's rollouts message can tell whether a receiver trained on
// it — the text, rewards and policy version are left out because they do not change what is learned
// from (rewards are the receiver's own re-score).
import { jsonHash } from '../protocol/digest.ts'

export interface HashableGroup {
  taskId: string
  completions: readonly { tokenIds: readonly number[] }[]
}

/** SHA-256 hex of the canonical JSON `{taskId, completions: tokenIds[][]}`. */
export function rolloutGroupHash(group: HashableGroup): string {
  return jsonHash({ taskId: group.taskId, completions: group.completions.map((c) => c.tokenIds) })
}
