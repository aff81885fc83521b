// A market as the commands print it: an id the other commands take back (`dpm:0`), the question and
// outcome labels, status, deadlines as ISO times, and per outcome its spot price (collateral per share)
// and implied probability, which are different numbers and are labelled apart.
import { MARKET_STATUS, outcomeLabel, type MarketSnapshot } from '../../../core/markets/market-snapshot.ts'
import { statusLabel } from '../../../core/markets/market-status.ts'
import type { Token } from './amounts.ts'
import type { BackendMarket } from './backend.ts'
import { amountOf, fractionOf, sharesOf } from './output.ts'

/**
 * The `dpm:<n>` / `lmsr:<n>` reference every market command accepts besides the address; the address
 * itself where the factory index is not known (index −1: Delphi's networks).
 */
export const marketId = (m: Pick<MarketSnapshot, 'kind' | 'index' | 'address'>): string =>
  m.index < 0 ? m.address : `${m.kind}:${m.index}`

const STATUS_NAMES: Record<number, string> = {
  [MARKET_STATUS.open]: 'open',
  [MARKET_STATUS.awaitingSettlement]: 'awaiting_settlement',
  [MARKET_STATUS.settled]: 'settled',
  [MARKET_STATUS.expired]: 'expired',
  [MARKET_STATUS.failed]: 'failed',
}

/** Delphi's status words (research/delphi.md §2). */
export const statusName = (status: number): string => STATUS_NAMES[status] ?? `status_${status}`

const isoTime = (unixSeconds: bigint): string => new Date(Number(unixSeconds) * 1000).toISOString()

const NO_WINNER = (1n << 256n) - 1n

export function marketSummary(m: MarketSnapshot, token: Token) {
  return {
    id: marketId(m),
    address: m.address,
    kind: m.kind,
    question: m.metadata?.question ?? null,
    status: statusName(m.status),
    statusText: statusLabel(m.status).label,
    tradingDeadline: isoTime(m.tradingDeadline),
    pool: amountOf(m.pool, token.decimals, token.symbol),
    outcomes: Array.from({ length: m.outcomeCount }, (_, i) => ({
      index: i,
      label: outcomeLabel(m, i),
      price: amountOf(m.spotPrices[i]!, m.priceDecimals, token.symbol),
      probability: fractionOf(m.probabilities[i]!),
    })),
  }
}

export function marketDetail(m: BackendMarket, token: Token) {
  const summary = marketSummary(m, token)
  return {
    ...summary,
    gateway: m.gateway,
    category: m.metadata?.category ?? null,
    resolutionCriteria: m.metadata?.resolutionCriteria ?? null,
    metadataError: m.metadataError,
    settlementDeadline: isoTime(m.settlementDeadline),
    tradingFee: fractionOf(m.tradingFee),
    /** DPM k or LMSR b */
    liquidity: fractionOf(m.k),
    tradingFees: amountOf(m.tradingFees, token.decimals, token.symbol),
    winningOutcome: m.winningOutcomeIdx === NO_WINNER ? null : Number(m.winningOutcomeIdx),
    outcomes: summary.outcomes.map((o, i) => ({ ...o, supply: sharesOf(m.supplies[i]!) })),
    blockNumber: m.blockNumber.toString(),
    /** Delphi's settlement: verifiable (settled by a model run anyone can re-check) and its proof, as the
     * API sends it (a URL, a receipt document or text); null on the local chain, which has no such API */
    settlement: m.settlement ?? null,
  }
}
