// The markets list as a person narrows it: by status, by words of the question / outcomes / category,
// sorted by liquidity (pool), creation (newest first) or trading deadline (soonest first).
import type { MarketSnapshot } from './market-snapshot.ts'

export type MarketSort = 'liquidity' | 'created' | 'deadline'

export const MARKET_SORTS: readonly { value: MarketSort; label: string }[] = [
  { value: 'liquidity', label: 'Liquidity' },
  { value: 'created', label: 'Newest' },
  { value: 'deadline', label: 'Trading deadline' },
]

export interface MarketListQuery {
  status: number | 'all'
  /** words that must all appear (case-insensitive) in the question, an outcome, the category or the address */
  search: string
  sort: MarketSort
}

export const DEFAULT_LIST_QUERY: MarketListQuery = { status: 'all', search: '', sort: 'liquidity' }

type Listed = Pick<
  MarketSnapshot,
  'address' | 'kind' | 'index' | 'metadata' | 'status' | 'pool' | 'tradingDeadline' | 'createdBlock'
>

function haystack(m: Listed): string {
  const md = m.metadata
  return [md?.question ?? '', ...(md?.outcomes ?? []), md?.category ?? '', m.address, m.kind]
    .join('\n')
    .toLowerCase()
}

export function matchesSearch(m: Listed, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return true
  const text = haystack(m)
  return words.every((w) => text.includes(w))
}

const cmp = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)

/** Creation order: the creation block (unknown last), then the factory index; DPM before LMSR on a tie. */
function createdOrder(a: Listed, b: Listed): number {
  const ab = a.createdBlock ?? -1n
  const bb = b.createdBlock ?? -1n
  return cmp(ab, bb) || a.index - b.index || a.kind.localeCompare(b.kind)
}

const COMPARE: Record<MarketSort, (a: Listed, b: Listed) => number> = {
  liquidity: (a, b) => cmp(b.pool, a.pool) || createdOrder(b, a),
  created: (a, b) => createdOrder(b, a),
  deadline: (a, b) => cmp(a.tradingDeadline, b.tradingDeadline) || createdOrder(b, a),
}

/** The markets `query` selects, in its order (the input is not modified). */
export function selectMarkets<M extends Listed>(markets: readonly M[], query: MarketListQuery): M[] {
  return markets
    .filter((m) => (query.status === 'all' || m.status === query.status) && matchesSearch(m, query.search))
    .sort(COMPARE[query.sort])
}
