// The markets for the UI (written by src/host/markets/markets-feed.ts while the Markets view is open):
// every market's latest snapshot, the connected wallet's positions, recent trades, and the list
// query (status filter, search, sort), which persists for the tab's session.
import { createStore } from 'zustand/vanilla'
import type { Address } from 'viem'
import type { CollateralDeployment } from '../chain/deployment.ts'
import type { TradeEvent } from '../chain/markets/market-events.ts'
import { DEFAULT_LIST_QUERY, type MarketListQuery } from '../../core/markets/market-list.ts'
import type { MarketPosition, MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import type { MarketSettlement } from '../../core/markets/settlement-proof.ts'

/** Trades kept per market (newest last). */
export const TRADES_KEPT = 50

export interface MarketsState {
  /** 'loading' until the first read; 'unavailable' when the chain has no markets deployment */
  phase: 'loading' | 'ready' | 'unavailable'
  /** the last read failure as a sentence; null when the last read succeeded */
  error: string | null
  /** what kind of failure, in a few words ("Delphi's testnet is offline"); null: say none */
  errorTitle: string | null
  /** the markets' collateral when it is not the deployment's (Delphi's networks); null: the deployment's */
  token: CollateralDeployment | null
  /** the shown market's history may be missing recent trades (a trailing subgraph); null when not */
  historyWarning: string | null
  markets: MarketSnapshot[]
  /** by lower-case market address: Delphi's verifiable flag and proof; empty on the local chain */
  settlements: Record<string, MarketSettlement>
  /** by lower-case market address; empty without a connected wallet */
  positions: Record<string, MarketPosition>
  /** the wallet positions and balance were read for (null: no wallet on the deployment's chain) */
  owner: Address | null
  /** the owner's collateral balance at the last read */
  collateralBalance: bigint | null
  /** by lower-case market address, oldest first */
  trades: Record<string, TradeEvent[]>
  blockNumber: bigint | null
  /** when the last read finished (ms since epoch) */
  updatedAt: number | null
  query: MarketListQuery
}

/** What a feed has read: empty while a (new) source loads; the list query is the user's and stays. */
export const emptyMarketsRead = (): Omit<MarketsState, 'query'> => ({
  phase: 'loading',
  error: null,
  errorTitle: null,
  token: null,
  historyWarning: null,
  markets: [],
  settlements: {},
  positions: {},
  owner: null,
  collateralBalance: null,
  trades: {},
  blockNumber: null,
  updatedAt: null,
})

export const marketsStore = createStore<MarketsState>()(() => ({
  ...emptyMarketsRead(),
  query: DEFAULT_LIST_QUERY,
}))

/** Appends trades, keeping the newest TRADES_KEPT per market and each trade once. */
export function mergeTrades(
  current: Readonly<Record<string, TradeEvent[]>>,
  incoming: readonly TradeEvent[],
): Record<string, TradeEvent[]> {
  const next: Record<string, TradeEvent[]> = { ...current }
  for (const t of incoming) {
    const key = t.market.toLowerCase()
    const list = next[key] ?? []
    if (list.some((x) => x.hash === t.hash && x.logIndex === t.logIndex)) continue
    next[key] = [...list, t].slice(-TRADES_KEPT)
  }
  return next
}
