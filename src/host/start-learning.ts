// The page's side of the learning loop: the round clock the peer worker runs on (the coordinator's when
// the swarm has one), and the worker's learning events folded into the learning store the Train view
// reads. The fold is pure (learningUpdate) and the clock takes its reader, so both are tested without
// a worker or a chain.
import { createPublicClient, http, type Address } from 'viem'
import { readCoordinatorClock, type CoordinatorClock } from './rewards/coordinator-clock.ts'
import { loadDeployment } from './chain/load-deployment.ts'
import type { SwarmConfig } from '../core/config/swarm-config.ts'
import { learningStore } from './stores/learning-store.ts'
import { FEED_LIMIT, initialLearningState, type LearningState } from '../core/learning/learning-state.ts'
import { MAX_HISTORY_EVALS, MAX_HISTORY_ROUNDS } from '../core/learning/learning-loop.ts'
import type { LearningEvent, PeerWorkerEvent } from '../core/protocol/peer-worker-messages.ts'
import { deploymentRpcUrl } from './chain/deployment-client.ts'
import { formatDuration } from './format.ts'

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
      // kept once, with the others' receipts, in the received-receipts store (start-tab records it there)
      return {}
    case 'learning-error':
      return event.fatal ? { phase: 'error', message: event.message } : { message: event.message }
    case 'learning-degraded': {
      const degraded = { ...state.degraded }
      if (event.message === null) delete degraded[event.cause]
      else degraded[event.cause] = event.message
      return { degraded }
    }
  }
}

/** Starts the store over for a session: 'loading' when the swarm learns, 'off' when it does not. */
export function resetLearning(learns: boolean): void {
  learningStore.setState({ ...initialLearningState(), phase: learns ? 'loading' : 'off' })
}

/** Folds a worker event into the store; false when it is not a learning event. */
export function applyLearningEvent(event: PeerWorkerEvent): boolean {
  if (!isLearningEvent(event)) return false
  learningStore.setState((state) => learningUpdate(state, event))
  return true
}

/**
 * How long the tab waits for the coordinator's clock before it runs on the config's: the read goes on
 * while the network starts, and a chain that is down must not hold the swarm up.
 */
export const CLOCK_READ_TIMEOUT_MS = 3_000

/** The swarm's coordinator and a read of its round clock. */
export interface CoordinatorClockSource {
  coordinator: Address
  read(): Promise<CoordinatorClock>
}

/** The config the peer worker runs on, and the round card's line about its clock. */
export interface LearningClock {
  config: SwarmConfig
  clockNote: LearningState['clockNote']
}

const describeClock = (c: CoordinatorClock) =>
  `${formatDuration(c.roundLengthMs)} rounds from ${new Date(c.genesisTime).toISOString()}`

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The round clock of the learning loop: the coordinator's, when the swarm has one and it answers (its
 * rounds are the ones it accepts rewards for), in place of the config's; the config's otherwise. The
 * note says so whenever the two differ or the coordinator could not be read.
 */
export async function learningClock(
  config: SwarmConfig,
  source: CoordinatorClockSource | null,
): Promise<LearningClock> {
  if (!source) return { config, clockNote: null }
  let clock: CoordinatorClock
  try {
    clock = await source.read()
  } catch (error) {
    return {
      config,
      clockNote: {
        text:
          `The coordinator at ${source.coordinator} did not answer (${message(error)}): rounds follow the ` +
          "swarm config's clock, and the coordinator may refuse rewards of rounds it counts differently.",
        warn: true,
      },
    }
  }
  if (clock.genesisTime === config.genesisTime && clock.roundLengthMs === config.roundLengthMs)
    return { config, clockNote: null }
  return {
    config: { ...config, genesisTime: clock.genesisTime, roundLengthMs: clock.roundLengthMs },
    clockNote: {
      text:
        `round clock from the coordinator at ${source.coordinator}: ${describeClock(clock)} ` +
        `(the swarm config says ${describeClock(config)})`,
      warn: false,
    },
  }
}

/** `coordinator` on the chain at `rpcUrl`, read with one try of at most CLOCK_READ_TIMEOUT_MS. */
export function coordinatorClockSource(rpcUrl: string, coordinator: Address): CoordinatorClockSource {
  const client = createPublicClient({
    transport: http(rpcUrl, { retryCount: 0, timeout: CLOCK_READ_TIMEOUT_MS }),
  })
  return { coordinator, read: () => readCoordinatorClock(client, coordinator) }
}

/** The coordinator of the app server's chain (/deployment.json); null when it runs none. */
export async function deploymentClockSource(): Promise<CoordinatorClockSource | null> {
  const { deployment } = await loadDeployment()
  return deployment && coordinatorClockSource(deploymentRpcUrl(deployment), deployment.coordinator)
}

/** Shows the clock's note on the round card (and in the console) and gives the config for the worker. */
export function adoptLearningClock({ config, clockNote }: LearningClock): SwarmConfig {
  learningStore.setState({ clockNote })
  if (clockNote) console.info(`tabswarm: ${clockNote.text}`)
  return config
}
