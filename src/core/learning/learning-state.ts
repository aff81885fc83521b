// The learning swarm's state as one peer sees it: its rounds, its held-out evaluations, what it heard
// from others, what it knows of them and its rewards on their way to the chain. Plain data: the peer
// worker's loop makes it, the tab's store (src/host/stores/learning-store.ts) holds it, the views read it.
import type { RoundReport } from './swarm-round.ts'

/** Where the round loop is. `skipped` rounds were missed (slow peer, reload) and say why. */
export type LearningPhase = 'off' | 'loading' | 'sampling' | 'collecting' | 'training' | 'waiting' | 'error'

/** One finished (or skipped) round of this peer. */
export interface RoundRow extends RoundReport {
  /** ms since epoch */
  startedAt: number
  endedAt: number
  /** sampling speed of the round's own completions */
  tokensPerSecond: number | undefined
  /** wall time of the GRPO step, receipt and save included */
  stepMs: number | undefined
  /** hex receipt id of the round's training step, when it took one */
  receiptId: string | undefined
  /** the training chain tip after the round (what goes on-chain with the reward) */
  chainTip: string | undefined
  /** set when the round was not run: why (e.g. "joined after the collection window closed") */
  skipped: string | undefined
}

/** What can fail without stopping learning: saving the round history, saving the trainer's steps. */
export type DegradedCause = 'history' | 'trainer'

/** A held-out evaluation: greedy pass@1 on the fixed task set, after `round`. */
export interface EvalPoint {
  round: number
  policyVersion: number
  /** greedy pass@1, the uniform mix over the held-out cells */
  pass1: number
  tasks: number
  /** its 95 % interval over distinct prompts; absent in histories saved before intervals were kept */
  ci95?: [number, number]
  /** share of answers with no parsable <answer>; absent likewise */
  formatFailures?: number
}

/** One completion another peer shared, as the feed shows it (re-scored by our verifiers). */
export interface HeardRollout {
  from: string
  name: string
  round: number
  family: string
  prompt: string
  answer: string
  /** the sender's reward */
  claimedReward: number
  /** our verifiers' reward; undefined when we refused the group */
  reward: number | undefined
  /** why we refused its group (REFUSAL in src/core/learning/swarm-round.ts) */
  refused?: string
  receivedAt: number
}

/** What this peer knows of another learning peer from gossip. */
export interface PeerLearning {
  name: string
  /** rounds in which it shared at least one valid group */
  rounds: number
  lastRound: number
  /** sum of our re-scored rewards of its completions */
  rewardSum: number
  completions: number
  /** groups we refused (bad task id, tokens that do not match their text, forged rewards) */
  refused: number
  /** refused groups by reason (REFUSAL in src/core/learning/swarm-round.ts); absent in records saved before it */
  refusedWhy?: Record<string, number>
  /** 1 = trusted; lowered for every refused group; below SCORE_IGNORE its rollouts are ignored */
  score: number
}

export type SubmissionStatus = 'queued' | 'sending' | 'confirmed' | 'failed'

/** One round's reward on its way to the coordinator. */
export interface Submission {
  round: number
  /** reward as submitted (the contract's int256: mean own reward × 1e6, rounded) */
  reward: string
  chainTip: string
  status: SubmissionStatus
  attempts: number
  txHash: string | undefined
  /** the last error, as a sentence */
  error: string | undefined
  /** the peers this round's vote names (submitWinners); empty or absent: no vote */
  winners?: string[]
  /** the vote's transaction */
  voteTxHash?: string
  /** what a queued submission waits for: the peer's registration, or the round to open on the chain */
  waitingFor?: 'registration' | 'round'
}

export interface LearningState {
  phase: LearningPhase
  /** the round being run and when its phases end (ms since epoch) */
  round: number
  roundEndsAt: number
  windowClosesAt: number
  /**
   * the model the swarm learns: name (its folder's), parameters, current weights hash and policy
   * version; `modelId` is the name its receipts carry, where that differs (tabswarm-next's receipts name
   * the architecture it shares with tabswarm-tiny)
   */
  model: {
    name: string
    modelId?: string
    parameters: number
    weightsHash: string
    policyVersion: number
  } | null
  rounds: RoundRow[]
  evals: EvalPoint[]
  /** newest first, capped (FEED_LIMIT) */
  feed: HeardRollout[]
  /** by peer id, from gossip */
  peers: Record<string, PeerLearning>
  /** by round */
  submissions: Record<number, Submission>
  /** a sentence for the user when phase is 'error' or something degraded (e.g. chain unreachable) */
  message: string | null
  /** rewards are held until this peer is registered to the wallet: a newcomer's normal state, not a fault */
  rewardsWaitForRegistration: boolean
  /** what learning goes on without, by cause, while it lasts (a full disk: nothing is saved) */
  degraded: Partial<Record<DegradedCause, string>>
  /** where the round clock comes from when it is not simply the swarm config's (the round card's line);
   * `warn` when the coordinator's could not be read */
  clockNote: { text: string; warn: boolean } | null
}

export const FEED_LIMIT = 200

export const initialLearningState = (): LearningState => ({
  phase: 'off',
  round: -1,
  roundEndsAt: 0,
  windowClosesAt: 0,
  model: null,
  rounds: [],
  evals: [],
  feed: [],
  peers: {},
  submissions: {},
  message: null,
  rewardsWaitForRegistration: false,
  degraded: {},
  clockNote: null,
})
