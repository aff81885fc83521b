// The life of one transaction the UI starts, as a small state machine: confirm (burner asks the user)
// → signing → pending (hash) → confirmed (block) | failed (a sentence). Events that do not fit the
// current phase are ignored, so a late callback cannot move a finished transaction back.
import type { Hex } from 'viem'

export type TxState =
  | { phase: 'idle' }
  | { phase: 'confirming' }
  | { phase: 'signing' }
  | { phase: 'pending'; hash: Hex }
  | { phase: 'confirmed'; hash: Hex; blockNumber: bigint }
  | { phase: 'failed'; error: string; hash?: Hex }

export type TxEvent =
  | { type: 'confirm' }
  | { type: 'sign' }
  | { type: 'sent'; hash: Hex }
  | { type: 'mined'; blockNumber: bigint }
  | { type: 'fail'; error: string }
  | { type: 'reset' }

export const TX_IDLE: TxState = { phase: 'idle' }

/** True while the transaction is in flight: its button stays disabled. */
export const txBusy = (s: TxState): boolean =>
  s.phase === 'confirming' || s.phase === 'signing' || s.phase === 'pending'

export function txReducer(state: TxState, event: TxEvent): TxState {
  switch (event.type) {
    case 'reset':
      return txBusy(state) ? state : TX_IDLE
    case 'confirm':
      return txBusy(state) ? state : { phase: 'confirming' }
    case 'sign':
      return state.phase === 'confirming' || !txBusy(state) ? { phase: 'signing' } : state
    case 'sent':
      return state.phase === 'signing' ? { phase: 'pending', hash: event.hash } : state
    case 'mined':
      return state.phase === 'pending'
        ? { phase: 'confirmed', hash: state.hash, blockNumber: event.blockNumber }
        : state
    case 'fail':
      return txBusy(state)
        ? { phase: 'failed', error: event.error, ...(state.phase === 'pending' ? { hash: state.hash } : {}) }
        : state
  }
}

/** A short line for the UI. */
export function txLabel(s: TxState): string {
  switch (s.phase) {
    case 'idle':
      return ''
    case 'confirming':
      return 'Waiting for your confirmation…'
    case 'signing':
      return 'Signing…'
    case 'pending':
      return 'Pending'
    case 'confirmed':
      return `Confirmed in block ${s.blockNumber}`
    case 'failed':
      return 'Failed'
  }
}
