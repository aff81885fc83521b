// A read-only client of the deployment's chain for the views that follow it without a wallet (the
// markets feed, the Train leaderboard): the RPC URL the user set for that chain, else the deployment's.
import { createPublicClient, http, type PublicClient } from 'viem'
import { rpcUrlFor } from './chains.ts'
import type { ChainDeployment } from './deployment.ts'
import { walletSettingsStore, walletStore } from '../stores/wallet-store.ts'

export function deploymentRpcUrl(deployment: ChainDeployment): string {
  const network = walletStore.getState().networks.find((n) => n.id === deployment.chainId)
  const overrides = walletSettingsStore.getState().rpcOverrides
  return network
    ? rpcUrlFor(network, overrides, location.href)
    : new URL(deployment.rpcUrl, location.href).href
}

/** Whether the deployment's chain is the local one (polled faster); true until the networks are known. */
export function isLocalDeployment(deployment: ChainDeployment): boolean {
  return walletStore.getState().networks.find((n) => n.id === deployment.chainId)?.local ?? true
}

/** JSON-RPC calls batched; one retry and a 10 s timeout, so a dead RPC is reported instead of hanging. */
export function deploymentReadClient(rpcUrl: string): PublicClient {
  return createPublicClient({
    transport: http(rpcUrl, { batch: true, retryCount: 1, timeout: 10_000 }),
  }) as PublicClient
}
