// Delphi’s subgraph (Goldsky, research/delphi.md §7): one GraphQL POST for the whole history of a
// market (trades, redemptions, liquidations, settlement or failure) and the indexer's `_meta` block,
// each row checked before use. Freshness against the chain head is subgraph-freshness.ts.
import { getAddress, isAddress, isHex, type Address, type Hex } from 'viem'
import type { MarketHistoryEntry } from '../../core/markets/market-history.ts'
import { DelphiResponseError } from './errors.ts'
import { requestJson } from './http-json.ts'

/** The most rows one entity list returns (the subgraph's own `first` limit). */
export const SUBGRAPH_MAX_ROWS = 1000

const AT = 'id block_number timestamp_ transactionHash_'

/** Entity → the fields read besides AT, and how a row becomes a history entry. */
const ENTITIES = {
  gatewayBuys: 'buyer outcomeIdx tokensIn sharesOut',
  gatewaySells: 'seller outcomeIdx sharesIn tokensOut',
  gatewayRedemptions: 'redeemer sharesIn tokensOut',
  gatewayLiquidations: 'liquidator outcomeIndices sharesIn totalTokensOut',
  gatewayMarketSettleds: 'winningOutcomeIdx',
  gatewayMarketFaileds: '',
} as const
type Entity = keyof typeof ENTITIES

/** The query for `market` (an address, checked, so inlining it is safe; the subgraph stores lower case). */
export function historyQuery(market: Address): string {
  const where = `where: { marketProxy: "${market.toLowerCase()}" }`
  const lists = Object.entries(ENTITIES).map(
    ([entity, extra]) =>
      `${entity}(first: ${SUBGRAPH_MAX_ROWS}, orderBy: block_number, orderDirection: asc, ${where}) { ${AT} ${extra} }`,
  )
  return `{ _meta { block { number } hasIndexingErrors } ${lists.join(' ')} }`
}

type Row = Record<string, unknown>

function reader(row: unknown, where: string) {
  if (typeof row !== 'object' || row === null)
    throw new DelphiResponseError(`The subgraph’s answer is malformed: ${where} is not an object.`)
  const r = row as Row
  const bad = (key: string, want: string): never => {
    throw new DelphiResponseError(
      `The subgraph’s answer is malformed: ${where}.${key} should be ${want}, not ${JSON.stringify(r[key]) ?? 'missing'}.`,
    )
  }
  const uint = (key: string, v: unknown = r[key]): bigint =>
    (typeof v === 'string' && /^\d+$/.test(v)) || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)
      ? BigInt(v)
      : bad(key, 'a whole number')
  return {
    uint,
    uints: (key: string): bigint[] =>
      Array.isArray(r[key])
        ? (r[key] as unknown[]).map((v) => uint(key, v))
        : bad(key, 'a list of whole numbers'),
    address: (key: string): Address =>
      typeof r[key] === 'string' && isAddress(r[key], { strict: false })
        ? getAddress(r[key])
        : bad(key, 'an address'),
    hash: (key: string): Hex =>
      typeof r[key] === 'string' && isHex(r[key]) && r[key].length === 66
        ? r[key]
        : bad(key, 'a transaction hash'),
  }
}

function entryOf(entity: Entity, row: unknown, where: string): MarketHistoryEntry {
  const f = reader(row, where)
  const at = {
    blockNumber: f.uint('block_number'),
    timestamp: Number(f.uint('timestamp_')),
    hash: f.hash('transactionHash_'),
  }
  switch (entity) {
    case 'gatewayBuys':
      return {
        ...at,
        kind: 'buy',
        trader: f.address('buyer'),
        outcome: Number(f.uint('outcomeIdx')),
        shares: f.uint('sharesOut'),
        tokens: f.uint('tokensIn'),
      }
    case 'gatewaySells':
      return {
        ...at,
        kind: 'sell',
        trader: f.address('seller'),
        outcome: Number(f.uint('outcomeIdx')),
        shares: f.uint('sharesIn'),
        tokens: f.uint('tokensOut'),
      }
    case 'gatewayRedemptions':
      return {
        ...at,
        kind: 'redeem',
        trader: f.address('redeemer'),
        shares: f.uint('sharesIn'),
        tokens: f.uint('tokensOut'),
      }
    case 'gatewayLiquidations':
      return {
        ...at,
        kind: 'liquidate',
        trader: f.address('liquidator'),
        outcomes: f.uints('outcomeIndices').map(Number),
        shares: f.uints('sharesIn'),
        tokens: f.uint('totalTokensOut'),
      }
    case 'gatewayMarketSettleds':
      return { ...at, kind: 'settled', winningOutcome: Number(f.uint('winningOutcomeIdx')) }
    case 'gatewayMarketFaileds':
      return { ...at, kind: 'failed' }
  }
}

export interface SubgraphHistory {
  entries: MarketHistoryEntry[]
  indexedBlock: bigint
  hasIndexingErrors: boolean
}

/** Parses the answer to `historyQuery`: every entity's rows merged in block order. */
export function parseHistoryAnswer(answer: unknown): SubgraphHistory {
  const body = answer as { data?: Row; errors?: { message?: unknown }[] } | null
  if (body?.errors?.length)
    throw new DelphiResponseError(
      `The subgraph refused the history query: ${body.errors.map((e) => String(e.message)).join('; ')}.`,
    )
  const data = body?.data
  if (typeof data !== 'object' || data === null)
    throw new DelphiResponseError('The subgraph answered without data.')
  const meta = data._meta as { block?: { number?: unknown }; hasIndexingErrors?: unknown } | undefined
  const number = meta?.block?.number
  if (typeof number !== 'number' && typeof number !== 'string')
    throw new DelphiResponseError('The subgraph’s answer is malformed: _meta.block.number is missing.')
  const indexedBlock = reader({ number }, '_meta.block').uint('number')
  const entries: MarketHistoryEntry[] = []
  for (const entity of Object.keys(ENTITIES) as Entity[]) {
    const rows = data[entity]
    if (!Array.isArray(rows))
      throw new DelphiResponseError(`The subgraph’s answer is malformed: ${entity} should be a list.`)
    rows.forEach((row, i) => entries.push(entryOf(entity, row, `${entity}[${i}]`)))
  }
  entries.sort((a, b) => (a.blockNumber === b.blockNumber ? 0 : a.blockNumber < b.blockNumber ? -1 : 1))
  return { entries, indexedBlock, hasIndexingErrors: meta?.hasIndexingErrors === true }
}

export interface DelphiSubgraph {
  history(market: Address): Promise<SubgraphHistory>
}

export function delphiSubgraph(options: {
  url: string
  networkName: string
  fetcher?: typeof fetch
}): DelphiSubgraph {
  return {
    history: async (market) =>
      parseHistoryAnswer(
        await requestJson({
          url: options.url,
          service: `Delphi’s ${options.networkName} subgraph`,
          method: 'POST',
          body: { query: historyQuery(market) },
          fetcher: options.fetcher,
        }),
      ),
  }
}
