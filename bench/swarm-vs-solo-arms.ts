// The arms of the headline benchmark and what one arm's run reports: shared by the driver
// (bench/swarm-vs-solo.ts) and the per-arm child process (bench/swarm-vs-solo-run.ts).

/** Sharing with RL Swarm's uniform draw, sharing with groups that carry a signal first, and alone. */
export const ARMS = ['swarm', 'swarm-signal', 'solo'] as const
export type Arm = (typeof ARMS)[number]

export interface ArmResult {
  arm: Arm
  seed: number
  /** [round][peer] mean reward of the peer's own completions */
  reward: number[][]
  /** [round][peer] groups of the peer's training step whose rewards differ (the rest have zero advantage) */
  informative: number[][]
  /** rounds at which held-out pass@1 was measured (the last round always), and [eval][peer] pass@1 */
  evalRounds: number[]
  pass1: number[][]
  /** [eval][peer] its 95 % interval over distinct reserved prompts */
  pass1Ci95: [number, number][][]
  /** [eval][peer] share of greedy answers with no parsable <answer> */
  formatFailures: number[][]
  /** [eval] reserved prompts scored (100 a cell for the curve, the full set at the start and the end) */
  evalTasks: number[]
  /**
   * [round][peer] the cells (cellKey) its curriculum chose for the free slots of its draw: an arm run
   * with another's choices replays them, so every arm draws the same tasks per peer and round
   */
  choices: string[][][]
  seconds: number
}
