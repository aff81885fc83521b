// What the connection banner and the header pills say, derived from the stores.
import type { RelayState } from '../peer/peer/bridge-protocol.ts'
import type { NetStatus } from '../host/stores/net-store.ts'
import type { SettingsState } from '../host/stores/settings-store.ts'

export type ConnectionState =
  'error' | 'left' | 'paused' | 'connecting' | 'unreachable' | 'alone' | 'connected'

export interface ConnectionInput {
  status: NetStatus
  relay: RelayState
  error: string | null
  participation: SettingsState['participation']
  /** swarm peers (relays excluded) */
  peerCount: number
}

/** The one state the banner shows, most urgent first. */
export function connectionState({
  status,
  relay,
  error,
  participation,
  peerCount,
}: ConnectionInput): ConnectionState {
  if (error !== null || status === 'error') return 'error'
  if (participation === 'left' || status === 'stopped') return 'left'
  if (participation === 'paused' || status === 'paused') return 'paused'
  if (relay === 'unreachable') return 'unreachable'
  if (relay === 'connecting') return 'connecting'
  if (peerCount === 0) return 'alone'
  return 'connected'
}

export type Tone = 'good' | 'warn' | 'bad' | 'muted'

export const STATUS_TONE: Record<NetStatus, Tone> = {
  starting: 'warn',
  online: 'good',
  paused: 'warn',
  stopped: 'muted',
  error: 'bad',
}

export const RELAY_LABEL: Record<RelayState, { text: string; tone: Tone }> = {
  connecting: { text: 'relay: connecting…', tone: 'warn' },
  connected: { text: 'relay: connected', tone: 'good' },
  reserved: { text: 'relay: reserved', tone: 'good' },
  unreachable: { text: 'relay: unreachable', tone: 'bad' },
}
