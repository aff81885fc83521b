// What is checked before a trade is sent (each with a sentence), and whether the market proxy needs a
// larger collateral allowance first. The gateway checks the same things; asking first saves a
// confirmation and a failed transaction.
import { formatTokenAmount } from './token-amount.ts'
import { MARKET_STATUS } from './market-snapshot.ts'
import { formatShares } from './share-amount.ts'
import type { TradeQuote } from './trade-quote.ts'

export interface TradeContext {
  status: number
  /** the wallet's collateral balance, base units (null: not read / no wallet) */
  balance: bigint | null
  /** the wallet's shares of the quoted outcome */
  held: bigint
  outcomeLabel: string
  token: { symbol: string; decimals: number }
}

/** A sentence saying why `quote` cannot be traded now, or null. */
export function tradeProblem(quote: TradeQuote, ctx: TradeContext): string | null {
  if (ctx.status !== MARKET_STATUS.open) return 'This market is not open for trading.'
  if (ctx.balance === null) return 'Connect a wallet on this chain to trade.'
  const amount = (v: bigint) =>
    formatTokenAmount(v, ctx.token.decimals, { maxFractionDigits: 4, symbol: ctx.token.symbol })
  if (quote.side === 'buy' && ctx.balance < quote.bound)
    return `Not enough ${ctx.token.symbol}: the trade may cost up to ${amount(quote.bound)} and this wallet holds ${amount(ctx.balance)}. Get test tokens in the Wallet view, or buy fewer shares.`
  if (quote.side === 'sell' && quote.shares > ctx.held)
    return `You hold ${formatShares(ctx.held)} shares of “${ctx.outcomeLabel}”, fewer than the ${formatShares(quote.shares)} to sell.`
  return null
}

export const UNLIMITED_ALLOWANCE = (1n << 256n) - 1n

/**
 * The allowance to give the market proxy before a buy, or null when the current one covers the
 * buy's slippage bound (maxTokensIn). Exact: the bound itself; unlimited: 2^256 − 1 (no later asks).
 */
export function approvalNeeded(quote: TradeQuote, allowance: bigint, unlimited = false): bigint | null {
  if (quote.side !== 'buy' || allowance >= quote.bound) return null
  return unlimited ? UNLIMITED_ALLOWANCE : quote.bound
}
