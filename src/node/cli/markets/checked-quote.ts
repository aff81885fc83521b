// A quote the commands can trust: the exact local maths (src/core/markets) on the market state read at one
// block, cross-checked against the gateway's own quote function at that same block. Equal to the unit,
// or the command stops: a trade is never sent on a quote the contract disagrees with.
import { formatUnits } from 'viem'
import { MARKET_STATUS, outcomeLabel, type MarketSnapshot } from '../../../core/markets/market-snapshot.ts'
import { statusLabel } from '../../../core/markets/market-status.ts'
import { quoteTrade, type TradeQuote, type TradeSide } from '../../../core/markets/trade-quote.ts'
import type { MarketBackend } from './backend.ts'
import { CommandError } from './command-error.ts'
import { marketId } from './market-json.ts'
import { amountOf, fractionOf, sharesOf } from './output.ts'
import { codeForRevert } from './revert-codes.ts'

/** The slippage a trade allows when no bound is given: the quote + 1 % (buy) or − 1 % (sell). */
export const DEFAULT_TRADE_SLIPPAGE_BPS = 100

export function requireOpen(m: MarketSnapshot): void {
  if (m.status !== MARKET_STATUS.open)
    throw new CommandError(
      'market-not-open',
      `Market ${marketId(m)} is ${statusLabel(m.status).label.toLowerCase()}, not open: it cannot be traded any more.`,
    )
}

/** The share minimum is far below what the app's sentences show (6 digits): state it exactly. */
function exactSizeSentence(r: { errorName: string; args: readonly bigint[] }): string | null {
  if (r.errorName !== 'SharesOutBelowMinDelta' && r.errorName !== 'SharesInBelowMinDelta') return null
  const [shares = 0n, min = 0n] = r.args
  return `Too few shares: ${formatUnits(shares, 18)} is below the gateway’s minimum of ${formatUnits(min, 18)} shares.`
}

export async function checkedQuote(
  backend: MarketBackend,
  m: MarketSnapshot,
  side: TradeSide,
  outcome: number,
  shares: bigint,
): Promise<{ quote: TradeQuote; gatewayTokens: bigint }> {
  requireOpen(m)
  const local = quoteTrade(m, { side, outcome, shares, slippageBps: DEFAULT_TRADE_SLIPPAGE_BPS })
  const gateway = await backend.gatewayQuote(m, side, outcome, shares)
  if (!local.ok && !gateway.ok && gateway.errorName === local.errorName)
    throw new CommandError(codeForRevert(local.errorName), exactSizeSentence(local) ?? gateway.sentence)
  if (local.ok && gateway.ok && local.quote.tokens === gateway.tokens)
    return { quote: local.quote, gatewayTokens: gateway.tokens }
  const said = (q: typeof local | typeof gateway) =>
    q.ok ? ('quote' in q ? q.quote.tokens.toString() : q.tokens.toString()) : q.errorName
  throw new CommandError(
    'quote-mismatch',
    `The local quote (${said(local)}) and the gateway’s (${said(gateway)}) differ for this ${side} on ${marketId(m)} at block ${m.blockNumber}; nothing was sent. Please report it.`,
  )
}

/** A quote as JSON: cost or proceeds, fee, average price, impact, probability before/after. */
export function quoteJson(m: MarketSnapshot, q: TradeQuote, gatewayTokens: bigint, unit: string) {
  const decimals = m.tokenDecimals
  return {
    market: marketId(m),
    address: m.address,
    side: q.side,
    outcome: { index: q.outcome, label: outcomeLabel(m, q.outcome) },
    shares: sharesOf(q.shares),
    [q.side === 'buy' ? 'cost' : 'proceeds']: amountOf(q.tokens, decimals, unit),
    fee: amountOf(q.fee, decimals, unit),
    averagePrice: amountOf(q.averagePrice, decimals, unit),
    priceBefore: amountOf(q.priceBefore, m.priceDecimals, unit),
    priceAfter: amountOf(q.priceAfter, m.priceDecimals, unit),
    priceImpactBps: q.priceImpactBps,
    probabilityBefore: fractionOf(q.probabilityBefore),
    probabilityAfter: fractionOf(q.probabilityAfter),
    payoutIfWins: q.payoutIfWins === null ? null : amountOf(q.payoutIfWins, decimals, unit),
    gatewayQuote: amountOf(gatewayTokens, decimals, unit),
    blockNumber: m.blockNumber.toString(),
  }
}
