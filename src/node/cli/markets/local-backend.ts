// The MarketBackend of our own contracts on the stack's chain (the local anvil of `npm start`): the
// markets are those of the deployment's two factories, found by address or `dpm:<n>` / `lmsr:<n>`, their
// creation order and trade history read from the gateways' and factories' events. Everything else is
// the shared chain backend (chain-backend.ts).
import { getAddress, isAddress, type Account, type PublicClient } from 'viem'
import { listMarkets } from '../../../host/chain/markets/market-reads.ts'
import { readMarketEvents } from '../../../host/chain/markets/market-events.ts'
import type { MarketDirectory } from '../../../core/markets/market-directory.ts'
import type { MarketHistoryEntry } from '../../../core/markets/market-history.ts'
import { MARKET_KIND_NAMES } from '../../../core/markets/market-kinds.ts'
import type { MarketBackend } from './backend.ts'
import { connectChainBackend } from './chain-backend.ts'
import { CommandError } from './command-error.ts'
import type { MarketsEndpoint } from './endpoint.ts'

/** `<kind>:<n>` (dpm:0, lmsr:2): the n-th market of that kind's factory (0-based, as `list` shows it). */
const INDEX_REF = new RegExp(`^(${MARKET_KIND_NAMES.join('|')}):(\\d+)$`, 'i')
const INDEX_FORMS = MARKET_KIND_NAMES.map((kind) => `${kind}:<n>`).join(' / ')

export interface LocalBackendOptions {
  endpoint: MarketsEndpoint
  /** signs the write actions; none: reads only */
  account?: Account
}

function deploymentDirectory(client: PublicClient, endpoint: MarketsEndpoint): MarketDirectory {
  const { markets, fromBlock } = endpoint
  return {
    async list(blockNumber) {
      const [refs, events] = await Promise.all([
        listMarkets(client, markets, blockNumber),
        readMarketEvents(client, markets, fromBlock, blockNumber),
      ])
      // creation blocks give the list its "newest first" order across the two factories
      const created = new Map(events.created.map((c) => [c.market.toLowerCase(), c.blockNumber]))
      return refs.map((ref) => ({ ref, createdBlock: created.get(ref.address.toLowerCase()) ?? null }))
    },

    async find(text, blockNumber) {
      const refs = await listMarkets(client, markets, blockNumber)
      const byIndex = INDEX_REF.exec(text.trim())
      const found = byIndex
        ? refs.find((r) => r.kind === byIndex[1]!.toLowerCase() && r.index === Number(byIndex[2]))
        : isAddress(text.trim(), { strict: false })
          ? refs.find((r) => r.address === getAddress(text.trim()))
          : undefined
      if (found) return { ref: found }
      if (!byIndex && !isAddress(text.trim(), { strict: false }))
        throw new CommandError(
          'unknown-market',
          `“${text}” is not a market: give its address, or ${INDEX_FORMS} as the list command shows.`,
        )
      throw new CommandError(
        'unknown-market',
        `There is no market ${text} on this deployment (${refs.length} markets): run the list command to see them.`,
      )
    },

    async history(m, chainHead) {
      const { trades } = await readMarketEvents(client, markets, fromBlock, chainHead)
      const entries: MarketHistoryEntry[] = trades
        .filter((t) => t.market === m.address)
        .map((t) => ({
          kind: t.side,
          trader: t.trader,
          outcome: t.outcome,
          shares: t.shares,
          tokens: t.tokens,
          blockNumber: t.blockNumber,
          timestamp: null,
          hash: t.hash,
        }))
      return { entries, indexedBlock: null, chainHead, warning: null }
    },
  }
}

export function connectLocalBackend(options: LocalBackendOptions): Promise<MarketBackend> {
  const { endpoint, account } = options
  const collateral = endpoint.collateral
  return connectChainBackend({
    network: 'local',
    rpcUrl: endpoint.rpcUrl,
    expectedChainId: endpoint.chainId,
    wrongChain: (chainId) =>
      `Wrong network: ${endpoint.rpcUrl} is chain ${chainId}, but ${endpoint.source} describes chain ${endpoint.chainId}. Point --rpc at the deployment’s chain.`,
    collateral,
    // the local collateral is its own faucet (CollateralToken.requestToken)
    faucet: typeof collateral === 'string' ? collateral : collateral.address,
    account,
    directory: (client) => deploymentDirectory(client, endpoint),
  })
}
