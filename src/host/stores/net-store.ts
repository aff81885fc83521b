// Network state for the UI: written by the main-thread libp2p node (src/host/net), read by views.
import { createStore } from 'zustand/vanilla'
import type { RelayState, Topology } from '../../peer/peer/bridge-protocol.ts'

export interface PeerCounters {
  messagesIn: number
  messagesOut: number
  bytesIn: number
  bytesOut: number
  /** refusals charged to this peer (not the ignored ones) */
  rejected: number
  /** ms epoch of the last message or connection event */
  lastSeen: number
}

export interface NetStats {
  messagesIn: number
  messagesOut: number
  bytesIn: number
  bytesOut: number
  /** gossip messages that failed validation, total and by reason */
  rejected: number
  rejectedByReason: Record<string, number>
  /**
   * of those, the ones refused for a reason that is not the handing peer's fault (timing, a newer
   * protocol version): gossipsub ignores them instead of lowering that peer's score
   */
  ignored: number
  /** peers hung up on for sending too many invalid messages */
  blockedPeers: number
  /** messages waiting to be handed to the peer worker */
  queueDepth: number
  perPeer: Record<string, PeerCounters>
}

/** One sample per second, for rates and charts. */
export interface NetSample {
  t: number
  messagesIn: number
  messagesOut: number
  bytesIn: number
  bytesOut: number
  rejected: number
}

export type NetStatus = 'starting' | 'online' | 'paused' | 'stopped' | 'error'

export interface NetState {
  status: NetStatus
  relay: RelayState
  error: string | null
  topology: Topology | null
  stats: NetStats
  /** last 60 samples */
  history: NetSample[]
}

export const emptyStats = (): NetStats => ({
  messagesIn: 0,
  messagesOut: 0,
  bytesIn: 0,
  bytesOut: 0,
  rejected: 0,
  rejectedByReason: {},
  ignored: 0,
  blockedPeers: 0,
  queueDepth: 0,
  perPeer: {},
})

export const netStore = createStore<NetState>()(() => ({
  status: 'starting',
  relay: 'connecting',
  error: null,
  topology: null,
  stats: emptyStats(),
  history: [],
}))
