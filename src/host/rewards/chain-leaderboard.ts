// Reads the leaderboard's inputs from SwarmCoordinator: every claim (paged), each claim's proof checked
// here, and every WinnerSubmitted event since the deployment block.
import type { Address, PublicClient } from 'viem'
import { swarmCoordinatorAbi } from '../chain/generated/SwarmCoordinator.ts'
import { buildLeaderboard } from './leaderboard.ts'
import type { Leaderboard, LeaderboardClaim, WinnerVote } from './leaderboard.ts'
import { verifyRegistration } from './registration-message.ts'

/** The contract's MAX_PAGE. */
const PAGE = 500n

export interface CoordinatorRef {
  chainId: number
  coordinator: Address
  deployedAtBlock: number
}

export async function readClaims(client: PublicClient, ref: CoordinatorRef): Promise<LeaderboardClaim[]> {
  const contract = { address: ref.coordinator, abi: swarmCoordinatorAbi } as const
  const count = await client.readContract({ ...contract, functionName: 'claimCount' })
  const claims: LeaderboardClaim[] = []
  for (let start = 0n; start < count; start += PAGE) {
    const page = await client.readContract({ ...contract, functionName: 'getClaims', args: [start, PAGE] })
    for (const c of page) {
      const verified = await verifyRegistration({ ...c, chainId: ref.chainId, coordinator: ref.coordinator })
      claims.push({
        peerId: c.peerId,
        wallet: c.wallet,
        totalRewards: c.totalRewards,
        rewardCount: c.rewardCount,
        voteCount: c.voteCount,
        verified,
      })
    }
  }
  return claims
}

export async function readWinnerVotes(client: PublicClient, ref: CoordinatorRef): Promise<WinnerVote[]> {
  const events = await client.getContractEvents({
    address: ref.coordinator,
    abi: swarmCoordinatorAbi,
    eventName: 'WinnerSubmitted',
    fromBlock: BigInt(ref.deployedAtBlock),
    strict: true,
  })
  return events.map((e) => ({
    voterPeerId: e.args.peerId,
    voterWallet: e.args.account,
    round: e.args.round,
    winners: e.args.winners,
  }))
}

export async function readLeaderboard(client: PublicClient, ref: CoordinatorRef): Promise<Leaderboard> {
  const [claims, votes] = await Promise.all([readClaims(client, ref), readWinnerVotes(client, ref)])
  return buildLeaderboard(claims, votes)
}
