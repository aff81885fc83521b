// The connected wallet's portfolio from the feed's stores: every market where it holds shares, valued
// by src/core/markets/portfolio.ts against the cost basis of its own trades in the full trade history. For
// settled DPM markets it reads the market's own winning shares (at the snapshot's block) to price the
// redemption exactly.
import { useEffect, useMemo, useState } from 'react'
import type { Address } from 'viem'
import { errorSentence } from '../../host/chain/error-sentence.ts'
import type { TradeEvent } from '../../host/chain/markets/market-events.ts'
import type { MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import {
  portfolioEntry,
  portfolioTotals,
  type PortfolioEntry,
  type PortfolioTotals,
} from '../../core/markets/portfolio.ts'
import { marketsFeedClient } from '../../host/markets/markets-feed.ts'
import { needsOwnWinningShares, readOwnWinningShares } from './use-market-own-winning-shares.ts'
import { useMarketsStore, useTradeHistoryStore } from '../stores.ts'

export interface Portfolio {
  owner: Address | null
  entries: PortfolioEntry[]
  totals: PortfolioTotals
  /** the last failure reading a settled market's unclaimed shares, as a sentence */
  error: string | null
}

const NONE: readonly TradeEvent[] = []
const keyOf = (m: MarketSnapshot) => `${m.address.toLowerCase()}:${m.blockNumber}`

/** Own winning shares of the held, settled DPM markets, by `address:block`. */
function useOwnWinningShares(markets: readonly MarketSnapshot[]): {
  shares: ReadonlyMap<string, bigint>
  error: string | null
} {
  const [read, setRead] = useState<{ shares: Map<string, bigint>; error: string | null }>({
    shares: new Map(),
    error: null,
  })
  const wanted = markets.filter(needsOwnWinningShares)
  const wantedKey = wanted.map(keyOf).join(',')
  useEffect(() => {
    const client = marketsFeedClient()
    if (!client || wanted.length === 0) return
    let live = true
    Promise.all(wanted.map(async (m) => [keyOf(m), await readOwnWinningShares(client, m)] as const)).then(
      (pairs) => live && setRead({ shares: new Map(pairs), error: null }),
      (err: unknown) => live && setRead((r) => ({ ...r, error: errorSentence(err) })),
    )
    return () => {
      live = false
    }
    // wantedKey names the markets and their blocks; the snapshots are new objects on every poll
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wantedKey])
  return read
}

export function usePortfolio(): Portfolio {
  const markets = useMarketsStore((s) => s.markets)
  const positions = useMarketsStore((s) => s.positions)
  const owner = useMarketsStore((s) => s.owner)
  const history = useTradeHistoryStore((s) => s.trades)
  const held = useMemo(
    () => markets.filter((m) => positions[m.address.toLowerCase()]?.shares.some((s) => s > 0n)),
    [markets, positions],
  )
  const own = useOwnWinningShares(held)
  const entries = useMemo(() => {
    if (!owner) return []
    const mine = owner.toLowerCase()
    return held.flatMap((m) => {
      const trades = (history[m.address.toLowerCase()] ?? NONE).filter((t) => t.trader.toLowerCase() === mine)
      const e = portfolioEntry({
        market: m,
        shares: positions[m.address.toLowerCase()]!.shares,
        trades,
        marketOwnWinningShares: own.shares.get(keyOf(m)) ?? null,
      })
      return e ? [e] : []
    })
  }, [owner, held, positions, history, own.shares])
  return { owner, entries, totals: portfolioTotals(entries), error: own.error }
}
