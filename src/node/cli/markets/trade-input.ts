// What `buy` and `sell` read before their own checks: the market, outcome and share count from the
// arguments, the optional slippage bound from its flag, and a checked quote of the trade.
import { formatUnits } from 'viem'
import type { MarketSnapshot } from '../../../core/markets/market-snapshot.ts'
import type { TradeQuote, TradeSide } from '../../../core/markets/trade-quote.ts'
import { parseShares, parseTokens } from './amounts.ts'
import type { MarketBackend } from './backend.ts'
import { checkedQuote } from './checked-quote.ts'
import type { CommandInput } from './command.ts'
import { parseOutcome } from './outcome-arg.ts'

export interface TradeInput {
  m: MarketSnapshot
  outcome: number
  shares: bigint
  /** the bound the flag gave, or null for the quote's default */
  bound: bigint | null
  quote: TradeQuote
  gatewayTokens: bigint
  /** an amount of collateral as a person reads it, "12.5 tUSD" */
  text: (amount: bigint) => string
}

export async function readTradeInput(
  backend: MarketBackend,
  side: TradeSide,
  boundFlag: string,
  { args: [marketArg, outcomeArg, sharesArg], flags }: CommandInput,
): Promise<TradeInput> {
  const { token } = backend
  const m = await backend.market(marketArg!)
  const outcome = parseOutcome(m, outcomeArg!)
  const shares = parseShares(sharesArg!)
  const flag = flags[boundFlag]
  const bound = flag === undefined ? null : parseTokens(flag, token, `--${boundFlag}`)
  const { quote, gatewayTokens } = await checkedQuote(backend, m, side, outcome, shares)
  const text = (v: bigint) => `${formatUnits(v, token.decimals)} ${token.symbol}`
  return { m, outcome, shares, bound, quote, gatewayTokens, text }
}
