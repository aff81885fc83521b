// Reading registrations back from the SwarmCoordinator: the claims of a wallet (its peers) and the
// claims on a peer id (every wallet that says it runs that peer). The contract checks nothing, so
// each claim is verified here (registration-message.ts) and shown verified or not.
import type { Address, Hex, PublicClient } from 'viem'
import { swarmCoordinatorAbi } from '../chain/generated/SwarmCoordinator.ts'
import { registrationProblem } from './registration-message.ts'

/** A claim as the UI shows it. */
export interface ClaimView {
  peerId: string
  wallet: Address
  publicKey: Hex
  signature: Hex
  /** unix seconds of the last registerPeer for this (peer, wallet) */
  registeredAt: number
  /** the proof holds for this chain, coordinator and wallet */
  verified: boolean
  /** why it does not, as a sentence; null when verified */
  problem: string | null
}

const PAGE = 100n
/** More than a person can read in a list; the rest is left off. */
export const MAX_CLAIMS_SHOWN = 500

interface RawClaim {
  peerId: string
  wallet: Address
  publicKey: Hex
  signature: Hex
  registeredAt: bigint
}

async function readPages(
  read: (start: bigint, count: bigint) => Promise<readonly RawClaim[]>,
): Promise<RawClaim[]> {
  const all: RawClaim[] = []
  for (let start = 0n; all.length < MAX_CLAIMS_SHOWN; start += PAGE) {
    const page = await read(start, PAGE)
    all.push(...page)
    if (BigInt(page.length) < PAGE) break
  }
  return all.slice(0, MAX_CLAIMS_SHOWN)
}

/** Checks each claim's proof against this chain and coordinator. */
export async function verifyClaims(
  claims: readonly RawClaim[],
  chainId: number,
  coordinator: Address,
): Promise<ClaimView[]> {
  return Promise.all(
    claims.map(async (c) => {
      const problem = await registrationProblem({ ...c, chainId, coordinator })
      return {
        peerId: c.peerId,
        wallet: c.wallet,
        publicKey: c.publicKey,
        signature: c.signature,
        registeredAt: Number(c.registeredAt),
        verified: problem === null,
        problem,
      }
    }),
  )
}

/** The peers `wallet` registered, verified. */
export async function readWalletClaims(
  client: PublicClient,
  coordinator: Address,
  wallet: Address,
): Promise<ClaimView[]> {
  const raw = await readPages((start, count) =>
    client.readContract({
      address: coordinator,
      abi: swarmCoordinatorAbi,
      functionName: 'getWalletPeers',
      args: [wallet, start, count],
    }),
  )
  return verifyClaims(raw, await client.getChainId(), coordinator)
}

/**
 * Claims on `peerId`, verified: `wallet`'s own first, read directly (getClaim), then up to
 * MAX_CLAIMS_SHOWN others in registration order. Anyone can register claims on any peer id, and gas is
 * free on a local chain: a page of others' claims alone would let a stranger push the owner's claim out
 * of sight with 500 forged ones, and the app would call the owner "not registered".
 */
export async function readPeerClaims(
  client: PublicClient,
  coordinator: Address,
  peerId: string,
  wallet?: Address,
): Promise<ClaimView[]> {
  const target = { address: coordinator, abi: swarmCoordinatorAbi } as const
  const [own, page] = await Promise.all([
    wallet === undefined
      ? undefined
      : client
          .readContract({ ...target, functionName: 'isRegistered', args: [peerId, wallet] })
          .then((registered) =>
            registered
              ? client.readContract({ ...target, functionName: 'getClaim', args: [peerId, wallet] })
              : undefined,
          ),
    readPages((start, count) =>
      client.readContract({ ...target, functionName: 'getPeerClaims', args: [peerId, start, count] }),
    ),
  ])
  const others = own ? page.filter((c) => c.wallet.toLowerCase() !== own.wallet.toLowerCase()) : page
  return verifyClaims(own ? [own, ...others] : others, await client.getChainId(), coordinator)
}
