// `sell <market> <outcome> <shares> [--min-proceeds <tokens>]`: sells exactly <shares> shares for at
// least --min-proceeds (default: the quote − 1 %). Refused before sending: a closed market, a size
// below the minimum or above the market's supply, more shares than the wallet holds, a bound above the
// quote.
import { formatUnits } from 'viem'
import { outcomeLabel } from '../../../../core/markets/market-snapshot.ts'
import { quoteJson } from '../checked-quote.ts'
import { readTradeInput } from '../trade-input.ts'
import type { MarketCommand } from '../command.ts'
import { CommandError } from '../command-error.ts'
import { amountOf, txJson } from '../output.ts'

export const sellCommand: MarketCommand = {
  spec: {
    args: ['market', 'outcome', 'shares'],
    flags: { 'min-proceeds': 'the least to receive, in collateral units (default: the quote − 1 %)' },
    summary: 'sell exactly <shares> shares of <outcome>',
  },
  signs: true,
  async run(backend, input) {
    const { token } = backend
    const owner = backend.account!
    const { m, outcome, shares, bound, quote, gatewayTokens, text } = await readTradeInput(
      backend,
      'sell',
      'min-proceeds',
      input,
    )
    const held = (await backend.position(m, owner)).shares[outcome] ?? 0n
    if (shares > held)
      throw new CommandError(
        'insufficient-shares',
        `${owner} holds ${formatUnits(held, 18)} shares of “${outcomeLabel(m, outcome)}”, fewer than the ${formatUnits(shares, 18)} to sell.`,
      )
    const minProceeds = bound ?? quote.bound
    if (minProceeds > quote.tokens)
      throw new CommandError(
        'slippage-exceeded',
        `Slippage exceeded before sending: the sale pays ${text(quote.tokens)} now, less than --min-proceeds ${text(minProceeds)}. Lower --min-proceeds; nothing was sent.`,
      )
    const tx = await backend.sell(m, outcome, shares, minProceeds)
    return {
      trade: {
        ...quoteJson(m, quote, gatewayTokens, token.symbol),
        minProceeds: amountOf(minProceeds, token.decimals, token.symbol),
        received: amountOf(tx.tokensOut, token.decimals, token.symbol),
      },
      tx: txJson(tx),
    }
  },
}
