// Every trade of the deployment's markets since it was deployed (written by
// src/host/markets/markets-feed.ts), uncapped, unlike the recent trades of markets-store: the
// probability chart replays a market's whole history through the maths and the portfolio takes the
// wallet's cost basis from all of its own trades.
import { createStore } from 'zustand/vanilla'
import type { TradeEvent } from '../chain/markets/market-events.ts'

export interface TradeHistoryState {
  /** by lower-case market address, chain order */
  trades: Record<string, TradeEvent[]>
  /** the last block read into `trades` (null before the first read) */
  throughBlock: bigint | null
}

export const tradeHistoryStore = createStore<TradeHistoryState>()(() => ({ trades: {}, throughBlock: null }))

const after = (a: TradeEvent, b: TradeEvent) =>
  a.blockNumber > b.blockNumber || (a.blockNumber === b.blockNumber && a.logIndex > b.logIndex)

/**
 * Appends `incoming` (chain order) to `current`. The feed reads each block range once, so a trade is
 * new exactly when it comes after the market's last one: that check keeps each trade once in O(1).
 */
export function appendTradeHistory(
  current: Readonly<Record<string, TradeEvent[]>>,
  incoming: readonly TradeEvent[],
): Record<string, TradeEvent[]> {
  if (incoming.length === 0) return current as Record<string, TradeEvent[]>
  const next: Record<string, TradeEvent[]> = { ...current }
  const copied = new Set<string>() // lists copied in this call, safe to extend in place
  for (const t of incoming) {
    const key = t.market.toLowerCase()
    const last = next[key]?.at(-1)
    if (last && !after(t, last)) continue
    if (!copied.has(key)) {
      next[key] = [...(next[key] ?? [])]
      copied.add(key)
    }
    next[key]!.push(t)
  }
  return next
}
