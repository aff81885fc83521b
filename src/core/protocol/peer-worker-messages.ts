// The messages between the main thread and workers/peer.worker.ts (not the network bridge, which has its
// own protocol in src/peer/peer/bridge-protocol.ts).
import type { SwarmConfig } from '../config/swarm-config.ts'
import type {
  DegradedCause,
  EvalPoint,
  HeardRollout,
  LearningPhase,
  LearningState,
  PeerLearning,
  RoundRow,
} from '../learning/learning-state.ts'
import type { Receipt } from './receipt-schema.ts'
import type { InputsFile } from './inputs-file.ts'
import type { PresenceState } from './presence.ts'
import type { Capabilities } from './presence.ts'

/** The first message: everything the worker needs, including the bridge port it will use as its network. */
export interface PeerWorkerInit {
  type: 'init'
  port: MessagePort
  config: SwarmConfig
  swarmId: string
  self: { peerId: string; name: string }
  appVersion: string
  capabilities: Capabilities
}

export type PeerWorkerCommand =
  | PeerWorkerInit
  /** stop publishing presence (peers are still heard) */
  | { type: 'pause' }
  | { type: 'resume' }
  /** publish a leaving presence and stop; the worker answers 'left' and closes itself */
  | { type: 'leave' }

/** What the learning loop reports (only when the swarm config has a learning section). */
export type LearningEvent =
  /** where the loop is; the times are ms since epoch */
  | {
      type: 'learning-phase'
      phase: LearningPhase
      round: number
      roundEndsAt: number
      windowClosesAt: number
    }
  | { type: 'learning-model'; model: NonNullable<LearningState['model']> }
  /** what a reload restored (rounds, evaluations, what we know of the others), before the first round */
  | { type: 'learning-history'; rounds: RoundRow[]; evals: EvalPoint[]; peers: Record<string, PeerLearning> }
  /** a finished or skipped round, and the others' standing after it */
  | { type: 'learning-round'; row: RoundRow; peers: Record<string, PeerLearning> }
  | { type: 'learning-eval'; point: EvalPoint }
  /** others' completions judged this round, for the feed */
  | { type: 'learning-heard'; rollouts: HeardRollout[] }
  /** our signed receipt of a round's training step, as published */
  /** our signed receipt as published, with its side file (what re-executes it; too big to gossip) */
  | { type: 'learning-receipt'; round: number; receipt: Receipt; inputs: InputsFile }
  /** a sentence for the user; `fatal` when the loop stopped */
  | { type: 'learning-error'; message: string; fatal: boolean }
  /** learning goes on without something (saving, usually): a sentence while it lasts, null when over */
  | { type: 'learning-degraded'; cause: DegradedCause; message: string | null }

export type PeerWorkerEvent =
  | LearningEvent
  | { type: 'state'; state: PresenceState }
  | { type: 'left' }
  /** the worker could not start (e.g. the node refused the subscription); the text is for the user */
  | { type: 'error'; message: string }
