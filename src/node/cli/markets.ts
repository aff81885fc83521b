// `npm run markets -- <command> …`: the market commands for agents (list, show, quote-buy, quote-sell,
// approve, buy, sell, positions, redeem, liquidate), one JSON object on stdout each. Writes sign with
// the key in TABSWARM_PRIVATE_KEY.
import { runMarkets } from './markets/run-markets.ts'

const { text, exitCode } = await runMarkets(process.argv.slice(2), process.env)
process.stdout.write(`${text}\n`)
process.exitCode = exitCode
