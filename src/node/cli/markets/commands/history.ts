// `history <market> [--limit n]`: the market's trades, exits and settlement in chain order (newest
// last), from the chain's events on the local chain and from the subgraph on Delphi's networks, with
// the subgraph's warning when it trails the chain.
import { outcomeLabel, type MarketSnapshot } from '../../../../core/markets/market-snapshot.ts'
import type { MarketHistoryEntry } from '../../../../core/markets/market-history.ts'
import type { Token } from '../amounts.ts'
import type { MarketCommand } from '../command.ts'
import { CommandError } from '../command-error.ts'
import { marketId } from '../market-json.ts'
import { amountOf, sharesOf } from '../output.ts'

function entryJson(m: MarketSnapshot, e: MarketHistoryEntry, token: Token) {
  const at = {
    blockNumber: e.blockNumber.toString(),
    time: e.timestamp === null ? null : new Date(e.timestamp * 1000).toISOString(),
    hash: e.hash,
  }
  const tokens = (v: bigint) => amountOf(v, token.decimals, token.symbol)
  switch (e.kind) {
    case 'buy':
    case 'sell':
      return {
        kind: e.kind,
        trader: e.trader,
        outcome: { index: e.outcome, label: outcomeLabel(m, e.outcome) },
        shares: sharesOf(e.shares),
        [e.kind === 'buy' ? 'paid' : 'received']: tokens(e.tokens),
        ...at,
      }
    case 'redeem':
      return { kind: e.kind, trader: e.trader, shares: sharesOf(e.shares), received: tokens(e.tokens), ...at }
    case 'liquidate':
      return {
        kind: e.kind,
        trader: e.trader,
        outcomes: e.outcomes.map((i, n) => ({
          index: i,
          label: outcomeLabel(m, i),
          shares: sharesOf(e.shares[n] ?? 0n),
        })),
        received: tokens(e.tokens),
        ...at,
      }
    case 'settled':
      return {
        kind: e.kind,
        winningOutcome: { index: e.winningOutcome, label: outcomeLabel(m, e.winningOutcome) },
        ...at,
      }
    case 'failed':
      return { kind: e.kind, ...at }
  }
}

export const historyCommand: MarketCommand = {
  spec: {
    args: ['market'],
    flags: { limit: 'only the newest n entries' },
    summary: 'the trades, exits and settlement of <market>, oldest first',
  },
  signs: false,
  async run(backend, { args: [marketArg], flags }) {
    const limit = flags.limit === undefined ? null : Number(flags.limit)
    if (limit !== null && (!Number.isInteger(limit) || limit < 1))
      throw new CommandError('usage', `--limit must be a whole number of at least 1, not “${flags.limit}”.`)
    const m = await backend.market(marketArg!)
    const history = await backend.history(m)
    const shown = limit === null ? history.entries : history.entries.slice(-limit)
    return {
      market: marketId(m),
      address: m.address,
      warning: history.warning,
      indexedBlock: history.indexedBlock?.toString() ?? null,
      chainHead: history.chainHead.toString(),
      total: history.entries.length,
      entries: shown.map((e) => entryJson(m, e, backend.token)),
    }
  },
}
