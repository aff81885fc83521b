// The wagmi config of a tab: the networks (local chain from /deployment.json, Gensyn testnet and
// mainnet) with their RPC URLs (settings overrides applied), and two connectors: the in-tab burner
// (default) and an injected wallet (MetaMask and the like). The local chain is polled every 500 ms so
// the panel follows it live; remote chains every 4 s.
import { createConfig, injected, type Config } from '@wagmi/core'
import { http, type Chain, type LocalAccount } from 'viem'
import { burner } from './burner-connector.ts'
import { rpcUrlFor, toViemChain, type NetworkInfo } from '../chain/chains.ts'

export const LOCAL_POLLING_MS = 500
export const REMOTE_POLLING_MS = 4_000

export interface WalletConfigOptions {
  networks: readonly NetworkInfo[]
  rpcOverrides: Readonly<Record<number, string>>
  /** what relative RPC URLs resolve against (the page) */
  base: string
  burnerAccount: () => Promise<LocalAccount>
}

export interface WalletConfig {
  config: Config
  chains: readonly Chain[]
  pollingInterval: (chainId: number) => number
  rpcUrl: (chainId: number) => string | undefined
}

export function createWalletConfig(options: WalletConfigOptions): WalletConfig {
  if (options.networks.length === 0) throw new Error('a wallet needs at least one network')
  const chains = options.networks.map((n) => toViemChain(n, rpcUrlFor(n, options.rpcOverrides, options.base)))
  const local = new Set(options.networks.filter((n) => n.local).map((n) => n.id))
  const pollingInterval = (chainId: number) => (local.has(chainId) ? LOCAL_POLLING_MS : REMOTE_POLLING_MS)
  const transports = Object.fromEntries(
    chains.map((c) => [c.id, http(c.rpcUrls.default.http[0], { retryCount: 1, timeout: 10_000 })]),
  )
  const config = createConfig({
    chains: chains as [Chain, ...Chain[]],
    transports,
    pollingInterval: Object.fromEntries(chains.map((c) => [c.id, pollingInterval(c.id)])),
    connectors: [
      burner({ account: options.burnerAccount, pollingInterval }),
      injected({ shimDisconnect: true }),
    ],
    // One injected connector for window.ethereum is enough here; no EIP-6963 discovery list.
    multiInjectedProviderDiscovery: false,
    // The tab keeps its own preference (wallet settings); wagmi's reconnect storage is not used.
    storage: null,
  })
  return {
    config: config as unknown as Config,
    chains,
    pollingInterval,
    rpcUrl: (chainId) => chains.find((c) => c.id === chainId)?.rpcUrls.default.http[0],
  }
}
