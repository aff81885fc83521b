// The market commands by name (the command set of Delphi's agent toolkit).
import type { MarketCommand } from '../command.ts'
import { approveCommand } from './approve.ts'
import { buyCommand } from './buy.ts'
import { faucetCommand } from './faucet.ts'
import { historyCommand } from './history.ts'
import { liquidateCommand } from './liquidate.ts'
import { listCommand } from './list.ts'
import { positionsCommand } from './positions.ts'
import { quoteBuyCommand, quoteSellCommand } from './quote.ts'
import { redeemCommand } from './redeem.ts'
import { sellCommand } from './sell.ts'
import { showCommand } from './show.ts'

export const COMMANDS: Readonly<Record<string, MarketCommand>> = {
  list: listCommand,
  show: showCommand,
  'quote-buy': quoteBuyCommand,
  'quote-sell': quoteSellCommand,
  approve: approveCommand,
  buy: buyCommand,
  sell: sellCommand,
  positions: positionsCommand,
  history: historyCommand,
  redeem: redeemCommand,
  liquidate: liquidateCommand,
  faucet: faucetCommand,
}
