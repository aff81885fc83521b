// Delphi's markets as a directory (market-directory.ts): the list, one market and a wallet's held
// markets come from the REST API, each routed to the gateway whose factory deployed it; history comes
// from the subgraph, with a warning when it trails the chain. The chain reads of their state are the
// caller's (the same reads as on the local chain). No CLI or UI here: failures are the errors of
// errors.ts for the caller to word.
import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  getAddress,
  isAddress,
  type PublicClient,
} from 'viem'
import { delphiFactoryAbi } from '../chain/generated/DelphiFactory.ts'
import type { DirectoryEntry, MarketDirectory } from '../../core/markets/market-directory.ts'
import {
  MARKET_CATEGORIES,
  type MarketCategory,
  type MarketMetadataDoc,
} from '../../core/markets/metadata.ts'
import { DelphiResponseError, DelphiUnknownMarketError } from './errors.ts'
import { gatewayRouter, type ProxiesExist } from './gateway-routing.ts'
import type { DelphiNetwork } from './networks.ts'
import { delphiRest } from './rest-client.ts'
import type { DelphiMarket } from './rest-shapes.ts'
import { delphiSubgraph } from './subgraph-client.ts'
import { subgraphFreshness } from './subgraph-freshness.ts'

export interface DelphiDirectoryOptions {
  client: PublicClient
  network: DelphiNetwork
  apiKey: string | null
  fetcher?: typeof fetch
  /** how to give another key, for the bad-key sentence */
  keyHint?: string
}

/** Delphi's REST metadata as the app's metadata document (its prompt context is how it resolves). */
function metadataOf(market: DelphiMarket): MarketMetadataDoc | undefined {
  if (!market.metadata) return undefined
  const category = (MARKET_CATEGORIES as readonly string[]).includes(market.category)
    ? (market.category as MarketCategory)
    : 'miscellaneous'
  return {
    question: market.metadata.question,
    outcomes: market.metadata.outcomes,
    category,
    resolutionCriteria: market.metadata.promptContext ?? '',
  }
}

/**
 * `marketProxiesExist` on one factory. A revert or an empty answer (no such factory on this chain, or
 * not one of this kind) is "no answer": routing goes on with the other factories. An unreachable RPC
 * is a failure.
 */
const proxiesExist =
  (client: PublicClient): ProxiesExist =>
  async (factory, markets) => {
    try {
      return await client.readContract({
        address: factory,
        abi: delphiFactoryAbi,
        functionName: 'marketProxiesExist',
        args: [[...markets]],
      })
    } catch (err) {
      const noAnswer = (e: unknown) =>
        e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError
      if (err instanceof BaseError && err.walk(noAnswer)) return null
      throw err
    }
  }

export function delphiDirectory(options: DelphiDirectoryOptions): MarketDirectory {
  const { client, network, apiKey, fetcher, keyHint } = options
  const rest = delphiRest({ network, apiKey, fetcher, keyHint })
  const subgraph = delphiSubgraph({ url: network.subgraphUrl, networkName: network.name, fetcher })
  const router = gatewayRouter({
    gateways: network.gateways,
    pins: network.pins,
    exists: proxiesExist(client),
  })

  /** REST markets → entries; markets no gateway of this network serves are left out. */
  async function entries(markets: DelphiMarket[]): Promise<DirectoryEntry[]> {
    const gateways = await router.route(markets.map((m) => m.id))
    return markets.flatMap((market, i) => {
      const g = gateways[i]
      if (!g) return []
      // Delphi has no per-factory index: the address is the market's id (index −1).
      return [
        {
          ref: { address: market.id, kind: g.kind, gateway: g.gateway, index: -1 },
          metadata: metadataOf(market),
          settlement: { verifiable: market.verifiable, proof: market.proof },
        },
      ]
    })
  }

  return {
    list: async () => entries(await rest.allMarkets({ orderBy: 'created' })),

    async find(text) {
      const id = text.trim()
      if (!isAddress(id, { strict: false }))
        throw new DelphiUnknownMarketError(
          `“${text}” is not a market: on Delphi’s ${network.name} give the market’s address (its id in the list).`,
        )
      const market = await rest.market(getAddress(id)).catch((err: unknown) => {
        if (err instanceof DelphiResponseError && /HTTP 404/.test(err.message))
          throw new DelphiUnknownMarketError(`Delphi’s ${network.name} API knows no market ${id}.`)
        throw err
      })
      const [entry] = await entries([market])
      if (!entry)
        throw new DelphiUnknownMarketError(
          `No gateway of Delphi’s ${network.name} serves market ${id}: none of the factories (${network.gateways.map((g) => `${g.label} ${g.factory}`).join(', ')}) deployed it.`,
        )
      return entry
    },

    async heldBy(owner) {
      const rows = await rest.positions(owner)
      const held = new Set(
        rows.filter((r) => r.shares > 0n && !r.redeemedOrLiquidated).map((r) => r.marketProxy),
      )
      return entries(await Promise.all([...held].map((id) => rest.market(id))))
    },

    async history(m, chainHead) {
      const h = await subgraph.history(m.address)
      const { warning } = subgraphFreshness(h.indexedBlock, chainHead, h.hasIndexingErrors)
      return { entries: h.entries, indexedBlock: h.indexedBlock, chainHead, warning }
    },
  }
}
