// Swarm protocol state for the UI: written from the peer worker's state posts, read by views.
import { createStore } from 'zustand/vanilla'
import type { PresencePeer } from '../../core/protocol/presence.ts'

export interface SwarmState {
  self: { peerId: string; name: string } | null
  round: number
  /** peers seen through valid presence messages, by peer id */
  peers: Record<string, PresencePeer>
  /** presence messages this peer published */
  presenceSent: number
}

export const swarmStore = createStore<SwarmState>()(() => ({
  self: null,
  round: -1,
  peers: {},
  presenceSent: 0,
}))
