// The messages between the main thread and workers/peer.worker.ts (not the network bridge, which has its
// own protocol in src/net/bridge-protocol.ts).
import type { SwarmConfig } from '../config/swarm-config.ts'
import type { PresenceState } from './presence-service.ts'
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

export type PeerWorkerEvent =
  | { type: 'state'; state: PresenceState }
  | { type: 'left' }
  /** the worker could not start (e.g. the node refused the subscription); the text is for the user */
  | { type: 'error'; message: string }
