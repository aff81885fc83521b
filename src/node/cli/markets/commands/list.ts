// `list [--status s] [--sort by] [--limit n] [--search words]`: the markets, narrowed and ordered the
// way the Markets view does it (src/core/markets/market-list.ts).
import { MARKET_SORTS, selectMarkets, type MarketSort } from '../../../../core/markets/market-list.ts'
import type { MarketCommand } from '../command.ts'
import { CommandError } from '../command-error.ts'
import { marketSummary, statusName } from '../market-json.ts'
import { MARKET_STATUS } from '../../../../core/markets/market-snapshot.ts'

const STATUS_ARGS = Object.values(MARKET_STATUS).map(statusName)
const SORT_ARGS = MARKET_SORTS.map((s) => s.value)

function parseStatus(text: string | undefined): number | 'all' {
  if (text === undefined || text === 'all') return 'all'
  const code = STATUS_ARGS.indexOf(text)
  if (code < 0)
    throw new CommandError(
      'usage',
      `--status must be all or one of ${STATUS_ARGS.join(', ')}, not “${text}”.`,
    )
  return code
}

function parseLimit(text: string | undefined): number | null {
  if (text === undefined) return null
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1)
    throw new CommandError('usage', `--limit must be a whole number of at least 1, not “${text}”.`)
  return n
}

export const listCommand: MarketCommand = {
  spec: {
    args: [],
    flags: {
      status: `all (default) or ${STATUS_ARGS.join(' | ')}`,
      sort: `${SORT_ARGS.join(' | ')} (default liquidity)`,
      limit: 'at most this many markets',
      search: 'words that must all appear in the question, an outcome or the category',
    },
    summary: 'the markets with their prices and probabilities',
  },
  signs: false,
  async run(backend, { flags }) {
    const status = parseStatus(flags.status)
    const sort = (flags.sort ?? 'liquidity') as MarketSort
    if (!SORT_ARGS.includes(sort))
      throw new CommandError('usage', `--sort must be one of ${SORT_ARGS.join(', ')}, not “${flags.sort}”.`)
    const limit = parseLimit(flags.limit)
    const all = await backend.listMarkets()
    const selected = selectMarkets(all, { status, sort, search: flags.search ?? '' })
    const shown = limit === null ? selected : selected.slice(0, limit)
    return {
      network: backend.network,
      total: all.length,
      matched: selected.length,
      markets: shown.map((m) => marketSummary(m, backend.token)),
    }
  },
}
