// `approve <market> [amount]`: lets the market proxy (which holds the collateral, research/delphi.md §6)
// take up to <amount> of the wallet's collateral for buys; without an amount, or with `unlimited`,
// 2^256 − 1 so later buys on that market need no new approval.
import { formatUnits } from 'viem'
import { UNLIMITED_ALLOWANCE } from '../../../../core/markets/trade-checks.ts'
import { parseTokens } from '../amounts.ts'
import { requireOpen } from '../checked-quote.ts'
import type { MarketCommand } from '../command.ts'
import { marketId } from '../market-json.ts'
import { allowanceOf, txJson } from '../output.ts'

export const approveCommand: MarketCommand = {
  spec: {
    args: ['market', 'amount?'],
    flags: {},
    summary: 'allow <market> to take up to <amount> collateral for buys (default: unlimited)',
  },
  signs: true,
  async run(backend, { args: [marketArg, amountArg] }) {
    const { token } = backend
    const m = await backend.market(marketArg!)
    requireOpen(m)
    const unlimited = amountArg === undefined || amountArg.trim().toLowerCase() === 'unlimited'
    const amount = unlimited ? UNLIMITED_ALLOWANCE : parseTokens(amountArg, token, 'The allowance')
    const tx = await backend.approve(m, amount)
    return {
      market: marketId(m),
      spender: m.address,
      allowance: allowanceOf(amount, token.decimals, token.symbol),
      note: `Buys on ${marketId(m)} may now cost up to ${unlimited ? 'any amount' : `${formatUnits(amount, token.decimals)} ${token.symbol}`} in total.`,
      tx: txJson(tx),
    }
  },
}
