// `buy <market> <outcome> <shares> [--max-cost <tokens>]`: buys exactly <shares> shares, paying at most
// --max-cost (default: the quote + 1 %). Everything the gateway would refuse is refused before sending:
// a closed market, a size below the minimum, a bound below the quote, too little collateral, and an
// allowance short of the bound (approval is its own command, so nothing is left half-done).
import { formatUnits } from 'viem'
import { approvalNeeded } from '../../../../core/markets/trade-checks.ts'
import { quoteJson } from '../checked-quote.ts'
import { readTradeInput } from '../trade-input.ts'
import type { MarketCommand } from '../command.ts'
import { CommandError } from '../command-error.ts'
import { marketId } from '../market-json.ts'
import { amountOf, txJson } from '../output.ts'

export const buyCommand: MarketCommand = {
  spec: {
    args: ['market', 'outcome', 'shares'],
    flags: { 'max-cost': 'the most to pay, in collateral units (default: the quote + 1 %)' },
    summary: 'buy exactly <shares> shares of <outcome>',
  },
  signs: true,
  async run(backend, input) {
    const { token } = backend
    const owner = backend.account!
    const { m, outcome, shares, bound, quote, gatewayTokens, text } = await readTradeInput(
      backend,
      'buy',
      'max-cost',
      input,
    )
    const maxCost = bound ?? quote.bound
    if (maxCost < quote.tokens)
      throw new CommandError(
        'slippage-exceeded',
        `Slippage exceeded before sending: the buy costs ${text(quote.tokens)} now, more than --max-cost ${text(maxCost)}. Raise --max-cost or buy fewer shares; nothing was sent.`,
      )
    const [balance, position] = await Promise.all([
      backend.collateralBalance(owner),
      backend.position(m, owner),
    ])
    if (balance < quote.tokens)
      throw new CommandError(
        'insufficient-balance',
        `Not enough ${token.symbol}: the buy costs ${text(quote.tokens)} and ${owner} holds ${text(balance)}. Buy fewer shares.`,
      )
    const approve = approvalNeeded({ ...quote, bound: maxCost }, position.allowance)
    if (approve !== null)
      throw new CommandError(
        'approval-needed',
        `Market ${marketId(m)} may spend only ${text(position.allowance)} of your ${token.symbol} and this buy may cost up to ${text(maxCost)}: run \`npm run markets -- approve ${marketId(m)} ${formatUnits(approve, token.decimals)}\` first.`,
      )
    const tx = await backend.buy(m, outcome, shares, maxCost)
    return {
      trade: {
        ...quoteJson(m, quote, gatewayTokens, token.symbol),
        maxCost: amountOf(maxCost, token.decimals, token.symbol),
        paid: amountOf(tx.tokensIn, token.decimals, token.symbol),
      },
      tx: txJson(tx),
    }
  },
}
