// The Train leaderboard: one row per peer from what this tab heard (gossip: the peers' shared rollouts,
// re-scored by our verifiers, and our own rounds) and what the chain says (SwarmCoordinator's proven
// claims: submitted rewards, winner votes; unproven claims shown but never counted). Pure.
import { animalName } from '../../core/identity/animal.ts'
import type { Leaderboard } from '../../host/rewards/leaderboard.ts'
import { REWARD_SCALE } from '../../host/rewards/submission-queue.ts'
import type { PeerLearning, RoundRow } from '../../core/learning/learning-state.ts'

/** verified: a proven claim on the chain; unverified: only claims whose proof does not check;
 * unregistered: the chain has no claim of it; unknown: no chain data to tell. */
export type Registration = 'verified' | 'unverified' | 'unregistered' | 'unknown'

export interface LeaderRow {
  peerId: string
  name: string
  self: boolean
  /** rounds it took part in: run by us (self), shared a valid group in (gossip), or rewarded on-chain */
  rounds: number
  lastRound: number | null
  /** mean reward per completion by our verifiers (own mean for self); null before any */
  meanReward: number | null
  completions: number
  /** its groups we refused (self: none) */
  refused: number
  /** those groups by reason (REFUSAL in src/core/learning/swarm-round.ts) */
  refusedWhy: Record<string, number>
  /** our trust in its rollouts (1 = trusted; self is 1) */
  score: number
  /** Σ rewards submitted on-chain (proven claims only, in task units); null without chain data */
  chainReward: number | null
  chainRounds: number | null
  /** winner votes for it from proven claims; null without chain data */
  wins: number | null
  registration: Registration
  wallets: string[]
}

export interface LeaderboardInput {
  self: { peerId: string; name: string } | null
  /** this peer's rounds, as the learning store keeps them */
  rounds: readonly RoundRow[]
  /** completions per group (the swarm's G), to count our own completions */
  groupSize: number
  /** from gossip, by peer id */
  peers: Readonly<Record<string, PeerLearning>>
  /** the chain's leaderboard; null when no chain is configured or it could not be read */
  chain: Leaderboard | null
}

function selfRow(
  self: { peerId: string; name: string },
  rounds: readonly RoundRow[],
  groupSize: number,
): LeaderRow {
  const run = rounds.filter((r) => r.skipped === undefined)
  const completions = run.reduce((n, r) => n + r.groupsPublished * groupSize, 0)
  return {
    ...blank(self.peerId, self.name),
    self: true,
    rounds: run.length,
    lastRound: run.at(-1)?.round ?? null,
    // every round has the same number of completions, so the mean of round means is the mean per completion
    meanReward: run.length === 0 ? null : run.reduce((s, r) => s + r.ownReward, 0) / run.length,
    completions,
  }
}

function blank(peerId: string, name: string): LeaderRow {
  return {
    peerId,
    name,
    self: false,
    rounds: 0,
    lastRound: null,
    meanReward: null,
    completions: 0,
    refused: 0,
    refusedWhy: {},
    score: 1,
    chainReward: null,
    chainRounds: null,
    wins: null,
    registration: 'unknown',
    wallets: [],
  }
}

/** Ties broken by peer id: a stable order every tab agrees on. */
const byPeerId = (a: LeaderRow, b: LeaderRow): number =>
  a.peerId < b.peerId ? -1 : a.peerId > b.peerId ? 1 : 0

/** Ranked: on-chain reward (when there is chain data), then wins, then mean reward, rounds, peer id. */
export function mergeLeaderboard({ self, rounds, groupSize, peers, chain }: LeaderboardInput): LeaderRow[] {
  const rows = new Map<string, LeaderRow>()
  const row = (peerId: string): LeaderRow => {
    let r = rows.get(peerId)
    if (!r) rows.set(peerId, (r = blank(peerId, animalName(peerId))))
    return r
  }
  if (self) rows.set(self.peerId, selfRow(self, rounds, groupSize))
  for (const [peerId, p] of Object.entries(peers)) {
    if (peerId === self?.peerId) continue // our own echo, if the worker ever reports one
    Object.assign(row(peerId), {
      name: p.name,
      rounds: p.rounds,
      lastRound: p.lastRound,
      meanReward: p.completions > 0 ? p.rewardSum / p.completions : null,
      completions: p.completions,
      refused: p.refused,
      refusedWhy: p.refusedWhy ?? {},
      score: p.score,
    })
  }
  if (chain) {
    for (const r of rows.values()) {
      r.registration = 'unregistered'
      r.chainReward = 0
      r.chainRounds = 0
      r.wins = 0
    }
    for (const c of chain.unverified) {
      const r = row(c.peerId)
      if (r.registration !== 'verified') r.registration = 'unverified'
      r.chainReward ??= 0
      r.chainRounds ??= 0
      r.wins ??= 0
    }
    for (const e of chain.entries) {
      const r = row(e.peerId)
      r.registration = 'verified'
      r.wallets = e.wallets
      r.chainReward = Number(e.totalRewards) / REWARD_SCALE
      r.chainRounds = Number(e.rewardRounds)
      r.wins = Number(e.wins)
      r.rounds = Math.max(r.rounds, r.chainRounds)
    }
  }
  return [...rows.values()].sort(
    (a, b) =>
      (b.chainReward ?? 0) - (a.chainReward ?? 0) ||
      (b.wins ?? 0) - (a.wins ?? 0) ||
      (b.meanReward ?? -Infinity) - (a.meanReward ?? -Infinity) ||
      b.rounds - a.rounds ||
      byPeerId(a, b),
  )
}

/**
 * A sender with nothing to its name but refused groups: not us, no group of it accepted, no proven
 * claim on the chain. A forger, or one of the fresh keys an attacker mints by the dozen: ranking it
 * among the peers that learn would bury them (a round attack leaves dozens), so the board lists it apart.
 */
export const refusedOnly = (r: LeaderRow): boolean =>
  !r.self && r.refused > 0 && r.completions === 0 && r.registration !== 'verified'

/** The ranked peers (in mergeLeaderboard's order) and the refused-only senders, most refused first. */
export function splitLeaderboard(rows: readonly LeaderRow[]): { ranked: LeaderRow[]; refused: LeaderRow[] } {
  const ranked = rows.filter((r) => !refusedOnly(r))
  const refused = rows.filter(refusedOnly).sort((a, b) => b.refused - a.refused || byPeerId(a, b))
  return { ranked, refused }
}
