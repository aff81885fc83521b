// The chains a wallet can use: the local chain the stack runs (from /deployment.json) and Gensyn's
// testnet and mainnet. Each RPC URL can be overridden in the wallet settings; a relative URL (the app
// server's `/rpc` proxy) resolves against the page.
import type { Chain } from 'viem'
import type { ChainDeployment } from './deployment.ts'

export const LOCAL_CHAIN_ID = 31337
export const GENSYN_TESTNET_ID = 685685
export const GENSYN_MAINNET_ID = 685689

export interface NetworkInfo {
  id: number
  name: string
  /** the RPC the app uses unless the settings override it */
  defaultRpcUrl: string
  explorerUrl?: string
  /** a dev chain: the burner is funded on it automatically */
  local: boolean
}

export const GENSYN_TESTNET: NetworkInfo = {
  id: GENSYN_TESTNET_ID,
  name: 'Gensyn Testnet',
  defaultRpcUrl: 'https://gensyn-testnet.g.alchemy.com/public',
  explorerUrl: 'https://gensyn-testnet.explorer.alchemy.com',
  local: false,
}

export const GENSYN_MAINNET: NetworkInfo = {
  id: GENSYN_MAINNET_ID,
  name: 'Gensyn Mainnet',
  defaultRpcUrl: 'https://gensyn-mainnet.g.alchemy.com/public',
  local: false,
}

/** Resolves `rpcUrl` against the page (`/rpc` → `http://host:port/rpc`); absolute URLs stay as they are. */
export function resolveRpcUrl(rpcUrl: string, base: string): string {
  const href = new URL(rpcUrl, base).href
  // new URL('http://host:8545') adds a '/' the user did not write; keep the URL as given.
  return href.endsWith('/') && !rpcUrl.endsWith('/') ? href.slice(0, -1) : href
}

/** The networks offered: the deployment's chain first (the default), then Gensyn testnet and mainnet. */
export function walletNetworks(deployment: ChainDeployment | null): NetworkInfo[] {
  const networks: NetworkInfo[] = []
  if (deployment) {
    const known = [GENSYN_TESTNET, GENSYN_MAINNET].find((n) => n.id === deployment.chainId)
    networks.push({
      id: deployment.chainId,
      name:
        known?.name ??
        (deployment.chainId === LOCAL_CHAIN_ID ? 'Local chain' : `Chain ${deployment.chainId}`),
      defaultRpcUrl: deployment.rpcUrl,
      explorerUrl: known?.explorerUrl,
      local: deployment.chainId === LOCAL_CHAIN_ID,
    })
  }
  for (const n of [GENSYN_TESTNET, GENSYN_MAINNET]) if (!networks.some((m) => m.id === n.id)) networks.push(n)
  return networks
}

/** The RPC URL in use for `network`: the override when one is set, resolved against `base`. */
export function rpcUrlFor(
  network: NetworkInfo,
  overrides: Readonly<Record<number, string>>,
  base: string,
): string {
  const override = overrides[network.id]?.trim()
  return resolveRpcUrl(override ? override : network.defaultRpcUrl, base)
}

/** A viem chain for `network` reached at `rpcUrl`. */
export function toViemChain(network: NetworkInfo, rpcUrl: string): Chain {
  return {
    id: network.id,
    name: network.name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    ...(network.explorerUrl
      ? { blockExplorers: { default: { name: `${network.name} explorer`, url: network.explorerUrl } } }
      : {}),
    testnet: network.id !== GENSYN_MAINNET_ID,
  }
}

/** Checks an RPC URL typed in the settings; returns a sentence saying what is wrong, or null. */
export function rpcUrlProblem(value: string): string | null {
  const v = value.trim()
  if (v === '') return null
  if (v.startsWith('/')) return null
  try {
    const url = new URL(v)
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return `An RPC URL starts with http:// or https://, not ${url.protocol}//`
    return null
  } catch {
    return `"${v}" is not a URL: use e.g. https://host/rpc or /rpc`
  }
}
