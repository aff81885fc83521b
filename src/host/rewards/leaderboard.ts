// The swarm's leaderboard from verified registrations only. SwarmCoordinator stores every claim and
// counts every vote (it cannot check Ed25519 proofs); this is where unproven claims are left out: their
// rewards are not summed, their votes are not counted, and a peer with no proven claim is not ranked.
// Pure: chain-leaderboard.ts reads the inputs.
import { animalName } from '../../core/identity/animal.ts'

export interface LeaderboardClaim {
  peerId: string
  wallet: string
  totalRewards: bigint
  /** rounds with a submitted reward */
  rewardCount: bigint
  /** rounds with a winners vote */
  voteCount: bigint
  verified: boolean
}

/** One WinnerSubmitted event: the voting claim and the peer ids it voted for. */
export interface WinnerVote {
  voterPeerId: string
  voterWallet: string
  round: bigint
  winners: readonly string[]
}

export interface LeaderboardEntry {
  peerId: string
  name: string
  /** wallets with a proven claim of this peer id */
  wallets: string[]
  /** Σ rewards over the proven claims */
  totalRewards: bigint
  rewardRounds: bigint
  /** votes for this peer from proven claims only */
  wins: bigint
  /** rounds this peer voted in (proven claims) */
  votes: bigint
}

export interface Leaderboard {
  /** ranked: total rewards, then wins, then peer id (a stable order for ties) */
  entries: LeaderboardEntry[]
  /** claims whose proof does not verify: shown as unverified, never ranked */
  unverified: LeaderboardClaim[]
  /** votes left out because the voter's claim is not proven */
  ignoredVotes: number
}

const claimKey = (peerId: string, wallet: string): string => `${peerId} ${wallet.toLowerCase()}`

export function buildLeaderboard(
  claims: readonly LeaderboardClaim[],
  votes: readonly WinnerVote[],
): Leaderboard {
  const proven = new Set<string>()
  const byPeer = new Map<string, LeaderboardEntry>()
  const unverified: LeaderboardClaim[] = []
  for (const c of claims) {
    if (!c.verified) {
      unverified.push(c)
      continue
    }
    proven.add(claimKey(c.peerId, c.wallet))
    const e = byPeer.get(c.peerId) ?? {
      peerId: c.peerId,
      name: animalName(c.peerId),
      wallets: [],
      totalRewards: 0n,
      rewardRounds: 0n,
      wins: 0n,
      votes: 0n,
    }
    e.wallets.push(c.wallet)
    e.totalRewards += c.totalRewards
    e.rewardRounds += c.rewardCount
    e.votes += c.voteCount
    byPeer.set(c.peerId, e)
  }
  let ignoredVotes = 0
  for (const v of votes) {
    if (!proven.has(claimKey(v.voterPeerId, v.voterWallet))) {
      ignoredVotes++
      continue
    }
    for (const w of v.winners) {
      const e = byPeer.get(w)
      if (e) e.wins += 1n // a winner without a proven claim is not ranked, so its wins go nowhere
    }
  }
  const entries = [...byPeer.values()].sort(
    (a, b) =>
      cmp(b.totalRewards, a.totalRewards) ||
      cmp(b.wins, a.wins) ||
      (a.peerId < b.peerId ? -1 : a.peerId > b.peerId ? 1 : 0),
  )
  return { entries, unverified, ignoredVotes }
}

const cmp = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)
