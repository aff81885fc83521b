// Implied probability of every outcome over time, for the market page's chart: the market's state at
// creation (rebuilt from its config and deposit by the exact maths) replayed through each trade event
// in chain order. The maths is the contracts' to the last unit, so the replay's last point equals the
// chain's probabilities exactly when no trade is missing — which is how the series says it is complete.
import { MARKET_KINDS, type MarketKind } from './market-kinds.ts'
import { buyMaths, mathsProbabilities, sellMaths, type MathsMarketOf } from './market-maths.ts'
import type { MarketSnapshot } from './market-snapshot.ts'

/** A trade as the series needs it (TradeEvent of src/host/chain/markets/market-events.ts fits). */
export interface SeriesTrade {
  side: 'buy' | 'sell'
  outcome: number
  shares: bigint
  blockNumber: bigint
  logIndex: number
}

export interface ProbabilityPoint {
  /** the trade's block; the creation block (or null when not seen) for the first point */
  blockNumber: bigint | null
  /** 1e18 = 100 %, one per outcome */
  probabilities: bigint[]
}

export interface ProbabilitySeries {
  /** creation first, then one point per trade */
  points: ProbabilityPoint[]
  /** the replay ends on the snapshot's supplies: no trade is missing from `trades` */
  complete: boolean
}

type SeriesMarket = Pick<
  MarketSnapshot,
  | 'kind'
  | 'outcomeCount'
  | 'k'
  | 'tradingFee'
  | 'tokenDecimals'
  | 'initialPool'
  | 'refund'
  | 'supplies'
  | 'createdBlock'
>

/** The market as it was created: DPM from its deposit (initial pool + refund), LMSR from b alone. */
export function createdState<K extends MarketKind>(m: SeriesMarket & { kind: K }): MathsMarketOf<K> {
  const config = {
    outcomeCount: m.outcomeCount,
    k: m.k,
    tradingFee: m.tradingFee,
    tokenDecimals: m.tokenDecimals,
  }
  return {
    kind: m.kind,
    market: MARKET_KINDS[m.kind].created({ ...config, initialDeposit: m.initialPool + m.refund }),
  }
}

const order = (a: SeriesTrade, b: SeriesTrade) =>
  a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1

/** Replays `trades` (this market's, any order) from creation; stops at a trade the maths refuses. */
export function probabilitySeries(m: SeriesMarket, trades: readonly SeriesTrade[]): ProbabilitySeries {
  let state = createdState(m)
  const points: ProbabilityPoint[] = [
    { blockNumber: m.createdBlock, probabilities: mathsProbabilities(state) },
  ]
  for (const t of [...trades].sort(order)) {
    try {
      state = (t.side === 'buy' ? buyMaths : sellMaths)(state, t.outcome, t.shares).after
    } catch {
      // a trade the chain accepted but this replay cannot apply: an earlier one is missing
      return { points, complete: false }
    }
    points.push({ blockNumber: t.blockNumber, probabilities: mathsProbabilities(state) })
  }
  const supplies = state.market.supplies
  const complete = supplies.length === m.supplies.length && supplies.every((s, i) => s === m.supplies[i])
  return { points, complete }
}
