// `quote-buy <market> <outcome> <shares>` / `quote-sell …`: what buying (selling) exactly that many
// shares costs (pays) now, by the exact local maths, checked against the gateway's quote. Read-only.
import { parseShares } from '../amounts.ts'
import { checkedQuote, quoteJson } from '../checked-quote.ts'
import type { MarketCommand } from '../command.ts'
import { parseOutcome } from '../outcome-arg.ts'
import type { TradeSide } from '../../../../core/markets/trade-quote.ts'

function quoteCommand(side: TradeSide): MarketCommand {
  return {
    spec: {
      args: ['market', 'outcome', 'shares'],
      flags: {},
      summary:
        side === 'buy'
          ? 'the cost of buying exactly <shares> shares of <outcome>'
          : 'the proceeds of selling exactly <shares> shares of <outcome>',
    },
    signs: false,
    async run(backend, { args: [marketArg, outcomeArg, sharesArg] }) {
      const m = await backend.market(marketArg!)
      const outcome = parseOutcome(m, outcomeArg!)
      const shares = parseShares(sharesArg!)
      const { quote, gatewayTokens } = await checkedQuote(backend, m, side, outcome, shares)
      return { quote: quoteJson(m, quote, gatewayTokens, backend.token.symbol) }
    },
  }
}

export const quoteBuyCommand = quoteCommand('buy')
export const quoteSellCommand = quoteCommand('sell')
