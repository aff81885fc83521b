// `redeem <market>`: pays out the wallet's winning shares of a settled market.
import { formatUnits } from 'viem'
import { MARKET_STATUS, outcomeLabel } from '../../../../core/markets/market-snapshot.ts'
import { statusLabel } from '../../../../core/markets/market-status.ts'
import type { MarketCommand } from '../command.ts'
import { CommandError } from '../command-error.ts'
import { marketId } from '../market-json.ts'
import { amountOf, sharesOf, txJson } from '../output.ts'

export const redeemCommand: MarketCommand = {
  spec: { args: ['market'], flags: {}, summary: 'redeem your winning shares of a settled market' },
  signs: true,
  async run(backend, { args: [marketArg] }) {
    const { token } = backend
    const m = await backend.market(marketArg!)
    if (m.status !== MARKET_STATUS.settled)
      throw new CommandError(
        'wrong-status',
        `Market ${marketId(m)} is ${statusLabel(m.status).label.toLowerCase()}: only a settled market redeems${m.status === MARKET_STATUS.expired || m.status === MARKET_STATUS.failed ? '; use the liquidate command' : ''}.`,
      )
    const winner = Number(m.winningOutcomeIdx)
    const held = (await backend.position(m, backend.account!)).shares[winner] ?? 0n
    if (held === 0n)
      throw new CommandError(
        'nothing-to-redeem',
        `${backend.account} holds no shares of the winning outcome “${outcomeLabel(m, winner)}” of ${marketId(m)}: nothing to redeem (${formatUnits(held, 18)} shares).`,
      )
    const tx = await backend.redeem(m)
    return {
      market: marketId(m),
      winningOutcome: { index: winner, label: outcomeLabel(m, winner) },
      sharesIn: sharesOf(tx.sharesIn),
      received: amountOf(tx.tokensOut, token.decimals, token.symbol),
      tx: txJson(tx),
    }
  },
}
