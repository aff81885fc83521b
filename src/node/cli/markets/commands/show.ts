// `show <market>`: one market in full.
import type { MarketCommand } from '../command.ts'
import { marketDetail } from '../market-json.ts'

export const showCommand: MarketCommand = {
  spec: {
    args: ['market'],
    flags: {},
    summary: 'one market: question, outcomes, prices, probabilities, deadlines',
  },
  signs: false,
  async run(backend, { args: [marketArg] }) {
    return { market: marketDetail(await backend.market(marketArg!), backend.token) }
  },
}
