// What a person does in the Wallet view, and what the specs read back from it and from the chain.
import { expect, type Page } from '@playwright/test'
import type { Address, Hex } from 'viem'
import { swarmCoordinatorAbi } from '../src/host/chain/generated/SwarmCoordinator.ts'
import { localClients, type LocalClients } from '../src/host/chain/local-clients.ts'
import type { Stack } from '../src/node/cli/stack.ts'
import { viewLink } from './tab-actions.ts'

/** Opens the Wallet view through the nav. */
export async function openWallet(page: Page): Promise<void> {
  await viewLink(page, 'Wallet').click()
  await expect(page.getByTestId('view-wallet')).toBeVisible()
}

/** Waits for the burner to be connected and funded; returns its address. */
export async function burnerReady(page: Page, timeout = 20_000): Promise<Address> {
  const status = page.getByTestId('wallet-status')
  await expect(status).toHaveAttribute('data-status', 'connected', { timeout })
  await expect(status).toHaveAttribute('data-kind', 'burner')
  await expect(page.getByTestId('eth-balance')).toHaveAttribute('data-wei', /^[1-9]\d*$/, { timeout })
  return (await page.getByTestId('wallet-address').textContent())!.trim() as Address
}

export interface ClaimRow {
  peerId: string
  wallet: string
  verified: boolean
}

async function rows(page: Page, testId: string): Promise<ClaimRow[]> {
  return page.getByTestId(testId).evaluateAll((els) =>
    els.map((r) => ({
      peerId: r.getAttribute('data-peer-id') ?? '',
      wallet: r.getAttribute('data-wallet') ?? '',
      verified: r.getAttribute('data-verified') === 'true',
    })),
  )
}

export const walletPeerRows = (page: Page) => rows(page, 'wallet-peer-row')
export const peerClaimRows = (page: Page) => rows(page, 'peer-claim-row')

/** Starts recording the data-phase values an element goes through (MutationObserver, old values kept). */
export async function recordPhases(page: Page, testId: string): Promise<() => Promise<string[]>> {
  await page.getByTestId(testId).evaluate((el) => {
    const seen: string[] = []
    ;(el as HTMLElement & { __phases?: string[] }).__phases = seen
    new MutationObserver((records) => {
      for (const r of records) {
        const now = (r.target as Element).getAttribute('data-phase')
        if (r.oldValue !== null && seen.at(-1) !== r.oldValue) seen.push(r.oldValue)
        if (now !== null) seen.push(now)
        // consecutive duplicates come from records batched together
        for (let i = seen.length - 1; i > 0; i--) if (seen[i] === seen[i - 1]) seen.splice(i, 1)
      }
    }).observe(el, { attributes: true, attributeFilter: ['data-phase'], attributeOldValue: true })
  })
  return () =>
    page
      .getByTestId(testId)
      .evaluate((el) => [...((el as HTMLElement & { __phases?: string[] }).__phases ?? [])])
}

/** viem clients for the stack's chain, from Node (anvil's RPC directly, or through the app's /rpc). */
export async function chainFromNode(stack: Stack): Promise<LocalClients & { rpcUrl: string }> {
  const deployment = stack.deployment
  if (!deployment) throw new Error('the stack runs no chain')
  const rpcUrl = new URL(deployment.rpcUrl, stack.url).href
  return { ...(await localClients(rpcUrl)), rpcUrl }
}

export async function walletPeersOnChain(
  chain: LocalClients,
  coordinator: Address,
  wallet: Address,
): Promise<{ peerId: string; wallet: Address; publicKey: Hex; signature: Hex }[]> {
  return [
    ...(await chain.client.readContract({
      address: coordinator,
      abi: swarmCoordinatorAbi,
      functionName: 'getWalletPeers',
      args: [wallet, 0n, 100n],
    })),
  ]
}
