// A trade quote as the trade panel shows it, from the local maths on the chain state: cost (or
// proceeds), fee, average price, price impact, the slippage bound sent with the trade, and what the
// shares pay if the outcome wins. Pure; a quote the gateway would refuse carries the revert's name.
import { maxTokensInWithSlippage, minTokensOutWithSlippage } from './dpm/dpm.ts'
import { MarketMathError } from './errors.ts'
import { WAD } from './fixed-point.ts'
import {
  buyMaths,
  mathsMarket,
  mathsPayoutIfWins,
  mathsProbabilities,
  mathsSpotPrices,
  sellMaths,
} from './market-maths.ts'
import type { MarketSnapshot } from './market-snapshot.ts'

export type TradeSide = 'buy' | 'sell'

export const DEFAULT_SLIPPAGE_BPS = 200
export const MAX_SLIPPAGE_BPS = 5_000

export interface TradeRequest {
  side: TradeSide
  outcome: number
  /** wei-shares */
  shares: bigint
  slippageBps: number
}

export interface TradeQuote {
  side: TradeSide
  outcome: number
  shares: bigint
  /** buy: tokensIn (fee included); sell: tokensOut (fee deducted); base units */
  tokens: bigint
  fee: bigint
  /** buy: maxTokensIn; sell: minTokensOut (the gateway reverts past it) */
  bound: bigint
  /** tokens per whole share, base units, rounded down */
  averagePrice: bigint
  /** spot price of the outcome before / after (units of the snapshot's priceDecimals) */
  priceBefore: bigint
  priceAfter: bigint
  /** (after − before)/before of the spot price, basis points, signed */
  priceImpactBps: number
  probabilityBefore: bigint
  probabilityAfter: bigint
  /** buy: what the bought shares pay if the outcome wins (after the trade); sell: null */
  payoutIfWins: bigint | null
}

export type QuoteResult =
  { ok: true; quote: TradeQuote } | { ok: false; errorName: string; args: readonly bigint[] }

export function slippageProblem(bps: number): string | null {
  if (!Number.isInteger(bps) || bps < 0 || bps > MAX_SLIPPAGE_BPS)
    return `Slippage is a whole number of basis points from 0 to ${MAX_SLIPPAGE_BPS} (100 bps = 1 %).`
  return null
}

export function quoteTrade(s: MarketSnapshot, r: TradeRequest): QuoteResult {
  const before = mathsMarket(s)
  try {
    const t =
      r.side === 'buy' ? buyMaths(before, r.outcome, r.shares) : sellMaths(before, r.outcome, r.shares)
    const priceBefore = mathsSpotPrices(before)[r.outcome]!
    const priceAfter = mathsSpotPrices(t.after)[r.outcome]!
    const bps = BigInt(r.slippageBps)
    return {
      ok: true,
      quote: {
        side: r.side,
        outcome: r.outcome,
        shares: r.shares,
        tokens: t.tokens,
        fee: t.fee,
        bound:
          r.side === 'buy' ? maxTokensInWithSlippage(t.tokens, bps) : minTokensOutWithSlippage(t.tokens, bps),
        averagePrice: (t.tokens * WAD) / r.shares,
        priceBefore,
        priceAfter,
        priceImpactBps: priceBefore === 0n ? 0 : Number(((priceAfter - priceBefore) * 10_000n) / priceBefore),
        probabilityBefore: mathsProbabilities(before)[r.outcome]!,
        probabilityAfter: mathsProbabilities(t.after)[r.outcome]!,
        payoutIfWins: r.side === 'buy' ? mathsPayoutIfWins(t.after, r.outcome, r.shares) : null,
      },
    }
  } catch (err) {
    if (err instanceof MarketMathError) return { ok: false, errorName: err.name, args: err.args }
    throw err
  }
}
