// The page's side of the learning loop: the peer worker's learning events, folded into the learning
// store the Train view reads. The fold is pure (learningUpdate) so it is tested without a worker.
import {
  FEED_LIMIT,
  initialLearningState,
  useLearningStore,
  type LearningState,
} from '../state/learning-store.ts'
import { MAX_HISTORY_EVALS, MAX_HISTORY_ROUNDS } from '../swarm/learning-loop.ts'
import type { LearningEvent, PeerWorkerEvent } from '../swarm/peer-worker-messages.ts'

export const isLearningEvent = (event: PeerWorkerEvent): event is LearningEvent =>
  event.type.startsWith('learning-')

/** What `event` changes in the learning state. */
export function learningUpdate(state: LearningState, event: LearningEvent): Partial<LearningState> {
  switch (event.type) {
    case 'learning-phase': {
      const { phase, round, roundEndsAt, windowClosesAt } = event
      return { phase, round, roundEndsAt, windowClosesAt }
    }
    case 'learning-model':
      return { model: event.model }
    case 'learning-history':
      return { rounds: event.rounds, evals: event.evals, peers: event.peers }
    case 'learning-round':
      return { rounds: [...state.rounds, event.row].slice(-MAX_HISTORY_ROUNDS), peers: event.peers }
    case 'learning-eval':
      return { evals: [...state.evals, event.point].slice(-MAX_HISTORY_EVALS) }
    case 'learning-heard':
      // the feed is newest first; a round's rollouts arrive oldest first
      return { feed: [...event.rollouts].reverse().concat(state.feed).slice(0, FEED_LIMIT) }
    case 'learning-receipt':
      return { receipts: [event.receipt, ...state.receipts].slice(0, RECEIPT_LIMIT) }
    case 'learning-error':
      return event.fatal ? { phase: 'error', message: event.message } : { message: event.message }
  }
}

/** Receipts of our own steps kept for the UI, newest first. */
export const RECEIPT_LIMIT = 50

/** Starts the store over for a session: 'loading' when the swarm learns, 'off' when it does not. */
export function resetLearning(learns: boolean): void {
  useLearningStore.setState({ ...initialLearningState(), phase: learns ? 'loading' : 'off' })
}

/** Folds a worker event into the store; false when it is not a learning event. */
export function applyLearningEvent(event: PeerWorkerEvent): boolean {
  if (!isLearningEvent(event)) return false
  useLearningStore.setState((state) => learningUpdate(state, event))
  return true
}
