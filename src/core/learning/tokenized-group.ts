// A rollout group in the model's tokens: what a round hands the trainer, and what a grpo-step receipt
// names the groups it trained on by. The batch layout for the model is src/compute/model/rollout-batch.ts.

/** Where a trained group came from: what a grpo-step receipt's trainedGroups name it by. */
export interface GroupOrigin {
  /** the sender's peer id (a peer's own group: its own) */
  readonly from: string
  /** the group's task id, as its rollouts message gave it */
  readonly taskId: string
}

export interface TokenizedGroup {
  promptIds: readonly number[]
  /** the G completions' token ids */
  completions: readonly (readonly number[])[]
  /** the receiver's own reward of each completion */
  rewards: readonly number[]
  /** absent for batches that no rollouts message carried (tests, benches): their receipts list no groups */
  origin?: GroupOrigin
}
