// `liquidate <market>`: exits every outcome the wallet holds of an expired or failed market at its
// frozen prices (research/delphi.md §3, Liquidation).
import { heldOutcomes } from '../../../../core/markets/exit-value.ts'
import { MARKET_STATUS, outcomeLabel } from '../../../../core/markets/market-snapshot.ts'
import { statusLabel } from '../../../../core/markets/market-status.ts'
import type { MarketCommand } from '../command.ts'
import { CommandError } from '../command-error.ts'
import { marketId } from '../market-json.ts'
import { amountOf, sharesOf, txJson } from '../output.ts'

export const liquidateCommand: MarketCommand = {
  spec: { args: ['market'], flags: {}, summary: 'liquidate your shares of an expired or failed market' },
  signs: true,
  async run(backend, { args: [marketArg] }) {
    const { token } = backend
    const m = await backend.market(marketArg!)
    if (m.status !== MARKET_STATUS.expired && m.status !== MARKET_STATUS.failed)
      throw new CommandError(
        'wrong-status',
        `Market ${marketId(m)} is ${statusLabel(m.status).label.toLowerCase()}: only an expired or failed market liquidates${m.status === MARKET_STATUS.settled ? '; use the redeem command' : ''}.`,
      )
    const { shares } = await backend.position(m, backend.account!)
    const held = heldOutcomes(shares)
    if (held.length === 0)
      throw new CommandError(
        'nothing-to-liquidate',
        `${backend.account} holds no shares of ${marketId(m)}: nothing to liquidate.`,
      )
    const tx = await backend.liquidate(m, held)
    return {
      market: marketId(m),
      outcomes: held.map((i, n) => ({
        index: i,
        label: outcomeLabel(m, i),
        sharesIn: sharesOf(tx.sharesIn[n] ?? 0n),
      })),
      received: amountOf(tx.totalTokensOut, token.decimals, token.symbol),
      tx: txJson(tx),
    }
  },
}
