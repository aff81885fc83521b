// The market source seam: the Markets view follows either the stack's local deployment
// (markets-feed.ts) or one of Delphi's networks (delphi-feed.ts); the views read the same store
// either way. Switching starts from an empty store so one network's markets never show under another.
import { rpcUrlFor, type NetworkInfo } from '../chain/chains.ts'
import type { ChainDeployment } from '../chain/deployment.ts'
import { delphiNetwork, type DelphiNetwork, type DelphiNetworkName } from '../delphi/networks.ts'
import { type DelphiSettings, type MarketSourceId } from '../stores/delphi-settings-store.ts'
import { emptyMarketsRead, marketsStore } from '../stores/markets-store.ts'
import { tradeHistoryStore } from '../stores/trade-history-store.ts'
import { startDelphiFeed } from './delphi-feed.ts'
import { startMarketsFeed } from './markets-feed.ts'

/** The sources the view offers, in the picker's order, with their labels. */
export const MARKET_SOURCES: readonly { id: MarketSourceId; label: string }[] = [
  { id: 'local', label: 'Local chain' },
  { id: 'testnet', label: 'Delphi testnet' },
  { id: 'mainnet', label: 'Delphi mainnet' },
  { id: 'competition-testnet', label: 'Delphi competition testnet' },
]

export const marketSourceLabel = (id: MarketSourceId): string =>
  MARKET_SOURCES.find((s) => s.id === id)?.label ?? id

/**
 * Delphi's `name` as this tab reaches it: the chain's RPC URL from the wallet settings (so one
 * override serves the wallet and the markets), the REST and subgraph URLs from the Delphi settings.
 */
export function delphiNetworkFor(
  name: DelphiNetworkName,
  settings: Pick<DelphiSettings, 'restUrls' | 'subgraphUrls'>,
  networks: readonly NetworkInfo[],
  rpcOverrides: Readonly<Record<number, string>>,
  base: string,
): DelphiNetwork {
  const defaults = delphiNetwork(name)
  const chain = networks.find((n) => n.id === defaults.chainId)
  const rest = settings.restUrls[name]?.trim()
  const subgraph = settings.subgraphUrls[name]?.trim()
  return delphiNetwork(name, {
    rpcUrl: chain ? rpcUrlFor(chain, rpcOverrides, base) : defaults.rpcUrl,
    ...(rest ? { restUrl: rest } : {}),
    ...(subgraph ? { subgraphUrl: subgraph } : {}),
  })
}

export interface MarketSourceInput {
  source: MarketSourceId
  deployment: ChainDeployment | null
  settings: DelphiSettings
  networks: readonly NetworkInfo[]
  rpcOverrides: Readonly<Record<number, string>>
}

/** Checks a REST or subgraph URL typed in the settings; a sentence saying what is wrong, or null. */
export function serviceUrlProblem(value: string): string | null {
  const v = value.trim()
  if (v === '') return null
  try {
    const url = new URL(v)
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? null
      : `A service URL starts with http:// or https://, not ${url.protocol}//`
  } catch {
    return `"${v}" is not a URL: use e.g. https://host/path`
  }
}

/** Empties the store and follows `source`; returns the stop function. */
export function startMarketSource(input: MarketSourceInput): () => void {
  marketsStore.setState(emptyMarketsRead())
  tradeHistoryStore.setState({ trades: {}, throughBlock: null })
  if (input.source === 'local') return startMarketsFeed(input.deployment)
  const network = delphiNetworkFor(
    input.source,
    input.settings,
    input.networks,
    input.rpcOverrides,
    location.href,
  )
  return startDelphiFeed({ network, apiKey: input.settings.apiKey.trim() || null })
}
