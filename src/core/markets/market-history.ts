// What happened on one market, in chain order: trades, exits, and how it ended. The local chain reads
// it from the gateways' events, Delphi's networks from their subgraph, which may trail the chain: the
// history then carries a warning saying by how much.
import type { Address, Hex } from 'viem'

interface At {
  blockNumber: bigint
  /** unix seconds; null when the source does not give it */
  timestamp: number | null
  hash: Hex
}

export type MarketHistoryEntry = At &
  (
    | { kind: 'buy' | 'sell'; trader: Address; outcome: number; shares: bigint; tokens: bigint }
    | { kind: 'redeem'; trader: Address; shares: bigint; tokens: bigint }
    | { kind: 'liquidate'; trader: Address; outcomes: number[]; shares: bigint[]; tokens: bigint }
    | { kind: 'settled'; winningOutcome: number }
    | { kind: 'failed' }
  )

export interface MarketHistory {
  entries: MarketHistoryEntry[]
  /** the last block the source has seen (the subgraph's `_meta`); null: the chain itself */
  indexedBlock: bigint | null
  chainHead: bigint
  /** set when the history may be missing recent events (a stale or failing indexer) */
  warning: string | null
}
