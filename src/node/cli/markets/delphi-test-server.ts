// Test support: a local stand-in for Delphi's REST API and subgraph (node:http), answering their
// documented shapes (gensyn-delphi-sdk v2.1.0 types) from the chain itself, so what the client reads
// over HTTP is exactly what the chain holds. REST: `/health`, `/markets` (skip, limit, status),
// `/markets/{id}`, `/positions?wallet` (zero-share rows included, as the real API sends them), behind
// `X-API-Key`. Subgraph: POST `/subgraph` answering the history query from the gateways' logs, with
// `_meta.block.number` trailing the head by `lag` blocks. Extra REST markets that no factory deployed
// and a corrupted answer can be switched on to exercise routing and validation, and any market can be
// made verifiable with a settlement proof. It answers CORS (any origin) so a browser tab can use it
// as Node does.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { getAddress, parseEventLogs, type Address, type PublicClient } from 'viem'
import { dynamicParimutuelGatewayAbi } from '../../../host/chain/generated/DynamicParimutuelGateway.ts'
import type { MarketsDeployment } from '../../../host/chain/deployment.ts'
import {
  listMarkets,
  readMarketPosition,
  readMarketSnapshot,
  readMarketStatics,
} from '../../../host/chain/markets/market-reads.ts'
import { closeHttp, listenHttp } from '../../relay/listen-http.ts'
import { MARKET_STATUS, type MarketSnapshot } from '../../../core/markets/market-snapshot.ts'
import { DELPHI_STATUS_WORDS } from '../../../host/delphi/rest-shapes.ts'
import type { MarketSettlement } from '../../../core/markets/settlement-proof.ts'

export interface DelphiTestServer {
  url: string
  restUrl: string
  subgraphUrl: string
  /** blocks `_meta` trails the chain head by */
  lag: bigint
  /** REST-only markets (no factory deployed them) listed after the chain's */
  extraMarkets: Address[]
  /** answer `/markets` with a market missing its `status` */
  corrupt: boolean
  /** `verifiable` and `proof` by lower-case market address; unlisted markets: not verifiable, no proof */
  settlements: Record<string, MarketSettlement>
  close(): Promise<void>
}

const NO_WINNER = (1n << 256n) - 1n
/** What a page of another origin needs to call it: any origin, the headers the clients send. */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Accept, Content-Type, X-API-Key, X-Delphi-Mode',
}
const WORDS = Object.fromEntries(Object.entries(DELPHI_STATUS_WORDS).map(([w, code]) => [code, w]))
const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString()

const NO_SETTLEMENT: MarketSettlement = { verifiable: false, proof: null }

/**
 * A receipt document shaped like Gensyn REE's (research/delphi.md §2: the hashes anyone can validate
 * and the model's text output) for a market settled on `outcome`; the hashes are placeholders.
 */
export function standInReeReceipt(outcome: string): string {
  const hash = (n: number) => `0x${n.toString(16).repeat(64)}`
  return JSON.stringify({
    commit_hash: hash(1),
    config_hash: hash(2),
    prompt_hash: hash(3),
    parameters_hash: hash(4),
    tokens_hash: hash(5),
    tools_hash: hash(6),
    receipt_hash: hash(7),
    text_output: outcome,
  })
}

function restMarket(m: MarketSnapshot, settlement: MarketSettlement = NO_SETTLEMENT) {
  return {
    id: m.address,
    appMarketId: `00000000-0000-4000-8000-${m.address.slice(-12).toLowerCase()}`,
    status: WORDS[m.status],
    category: m.metadata?.category ?? 'miscellaneous',
    deployer: m.gateway,
    implementation: m.gateway,
    metadataUri: 'ipfs://stand-in',
    metadataUriContentHash: `0x${'0'.repeat(64)}`,
    metadata: m.metadata
      ? {
          question: m.metadata.question,
          outcomes: m.metadata.outcomes,
          model: { prompt_context: m.metadata.resolutionCriteria },
        }
      : null,
    dataSources: null,
    createdAt: iso(m.tradingDeadline - 86_400n),
    fetchedAt: null,
    fetchResponseStatus: null,
    resolvesAt: iso(m.tradingDeadline),
    settledAt: null,
    settlesAt: iso(m.settlementDeadline),
    winningOutcomeIdx: m.winningOutcomeIdx === NO_WINNER ? null : m.winningOutcomeIdx.toString(),
    tradingFee: m.tradingFee.toString(),
    proof: settlement.proof,
    error: null,
    verifiable: settlement.verifiable,
  }
}

/** A REST market no factory knows (the shape only). */
const strayMarket = (address: Address) => ({
  ...restMarket({
    address,
    gateway: address,
    status: MARKET_STATUS.open,
    metadata: {
      question: 'A market of another deployment',
      outcomes: ['Yes', 'No'],
      category: 'crypto',
      resolutionCriteria: '',
    },
    tradingDeadline: 2_000_000_000n,
    settlementDeadline: 2_000_086_400n,
    winningOutcomeIdx: NO_WINNER,
    tradingFee: 10n ** 16n,
  } as MarketSnapshot),
})

const SUBGRAPH_EVENTS: Record<string, string> = {
  GatewayBuy: 'gatewayBuys',
  GatewaySell: 'gatewaySells',
  GatewayRedemption: 'gatewayRedemptions',
  GatewayLiquidation: 'gatewayLiquidations',
  GatewayMarketSettled: 'gatewayMarketSettleds',
  GatewayMarketFailed: 'gatewayMarketFaileds',
}

/** event args → the subgraph's row fields (numbers as decimal strings, addresses lower case) */
const rowValue = (v: unknown): unknown =>
  typeof v === 'bigint'
    ? v.toString()
    : typeof v === 'string'
      ? v.toLowerCase()
      : Array.isArray(v)
        ? v.map(rowValue)
        : v

export async function startDelphiTestServer(options: {
  port: number
  client: PublicClient
  markets: MarketsDeployment
  token: Address
  apiKey: string
}): Promise<DelphiTestServer> {
  const { client, markets, apiKey } = options

  async function snapshots(): Promise<MarketSnapshot[]> {
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
    const refs = await listMarkets(client, markets, blockNumber)
    return Promise.all(
      refs.map(async (ref) =>
        readMarketSnapshot(
          client,
          { ...ref, ...(await readMarketStatics(client, ref)) },
          { blockNumber, tokenDecimals: 6 },
        ),
      ),
    )
  }

  async function subgraph(query: string) {
    const market = /marketProxy: "(0x[0-9a-f]{40})"/.exec(query)?.[1]
    const head = await client.getBlockNumber({ cacheTime: 0 })
    const indexed = head > server.lag ? head - server.lag : 0n
    const logs = parseEventLogs({
      abi: dynamicParimutuelGatewayAbi,
      logs: await client.getLogs({
        address: [markets.dpmGateway, markets.lmsrGateway],
        fromBlock: 0n,
        toBlock: indexed,
      }),
    })
    const data: Record<string, unknown[]> = Object.fromEntries(
      Object.values(SUBGRAPH_EVENTS).map((e) => [e, []]),
    )
    for (const log of logs) {
      const entity = SUBGRAPH_EVENTS[log.eventName]
      const args = log.args as Record<string, unknown>
      if (!entity || String(args.marketProxy).toLowerCase() !== market) continue
      const block = await client.getBlock({ blockNumber: log.blockNumber })
      data[entity]!.push({
        id: `${log.transactionHash}-${log.logIndex}`,
        block_number: log.blockNumber.toString(),
        timestamp_: block.timestamp.toString(),
        transactionHash_: log.transactionHash,
        contractId_: log.address.toLowerCase(),
        ...Object.fromEntries(Object.entries(args).map(([k, v]) => [k, rowValue(v)])),
      })
    }
    return { data: { _meta: { block: { number: Number(indexed) }, hasIndexingErrors: false }, ...data } }
  }

  const settled = (m: MarketSnapshot) => restMarket(m, server.settlements[m.address.toLowerCase()])

  async function answer(req: IncomingMessage, url: URL): Promise<[number, unknown]> {
    if (url.pathname === '/subgraph' && req.method === 'POST') {
      let body = ''
      for await (const chunk of req) body += String(chunk)
      return [200, await subgraph((JSON.parse(body) as { query: string }).query)]
    }
    if (url.pathname === '/rest/health') return [200, { status: 'ok' }]
    if (req.headers['x-api-key'] !== apiKey) return [401, { detail: 'Invalid or missing API key' }]
    if (url.pathname === '/rest/markets') {
      const all = [...(await snapshots()).map(settled), ...server.extraMarkets.map(strayMarket)]
      const status = url.searchParams.get('status')
      const skip = Number(url.searchParams.get('skip') ?? 0)
      const limit = Number(url.searchParams.get('limit') ?? 50)
      const page = all.filter((m) => status === null || m.status === status).slice(skip, skip + limit)
      return [200, { markets: server.corrupt ? page.map(({ status: _, ...m }) => m) : page }]
    }
    const one = /^\/rest\/markets\/(0x[0-9a-fA-F]{40})$/.exec(url.pathname)
    if (one) {
      const found = (await snapshots()).find((m) => m.address === getAddress(one[1]!))
      if (found) return [200, settled(found)]
      const stray = server.extraMarkets.find((a) => a === getAddress(one[1]!))
      return stray ? [200, strayMarket(stray)] : [404, { detail: 'Market not found' }]
    }
    if (url.pathname === '/rest/positions') {
      const wallet = getAddress(url.searchParams.get('wallet') ?? '')
      const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
      const rows = []
      for (const m of await snapshots()) {
        const { shares } = await readMarketPosition(client, m, wallet, options.token, blockNumber)
        rows.push(
          ...shares.map((s, i) => ({
            id: `${m.address}-${wallet}-${i}`,
            marketProxy: m.address.toLowerCase(),
            wallet: wallet.toLowerCase(),
            outcomeIdx: String(i),
            shares: s.toString(),
            redeemedOrLiquidated: false,
            tokensRedeemed: '0',
            marketStatus: WORDS[m.status],
          })),
        )
      }
      const skip = Number(url.searchParams.get('skip') ?? 0)
      const limit = Number(url.searchParams.get('limit') ?? 50)
      return [200, { positions: rows.slice(skip, skip + limit) }]
    }
    return [404, { detail: 'Not found' }]
  }

  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in')
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS)
      res.end()
      return
    }
    answer(req, url)
      .then(([status, body]) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...CORS_HEADERS })
        res.end(JSON.stringify(body))
      })
      .catch((err: unknown) => {
        res.writeHead(500, { 'Content-Type': 'application/json', ...CORS_HEADERS })
        res.end(JSON.stringify({ detail: (err as Error).message }))
      })
  })
  const port = await listenHttp(http, 'Delphi stand-in', '127.0.0.1', options.port)
  const base = `http://127.0.0.1:${port}`
  const server: DelphiTestServer = {
    url: base,
    restUrl: `${base}/rest`,
    subgraphUrl: `${base}/subgraph`,
    lag: 0n,
    extraMarkets: [],
    corrupt: false,
    settlements: {},
    close: () => closeHttp(http),
  }
  return server
}
