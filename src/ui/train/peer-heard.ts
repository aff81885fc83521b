// One peer's rounds as this tab saw them, for the leaderboard's detail: per round, our mean reward of
// its accepted completions and how many there were (from our round reports, so the whole history),
// the groups we refused, and the mean reward it claimed (from the gossip feed, so recent rounds only).
import type { HeardRollout, RoundRow } from '../../core/learning/learning-state.ts'

export interface HeardRound {
  round: number
  /** accepted completions */
  completions: number
  /** our verifiers' mean reward of them; undefined when none was accepted */
  reward: number | undefined
  refused: number
  /**
   * the refused groups by reason, and those dropped before judging charged or not; empty in rounds saved
   * before reasons were kept
   */
  refusedWhy: Record<string, number>
  /** the sender's own mean reward of what the feed still holds of that round */
  claimed: number | undefined
}

/** Newest round first. */
export function heardRounds(
  rounds: readonly RoundRow[],
  feed: readonly HeardRollout[],
  peerId: string,
): HeardRound[] {
  const claims = new Map<number, { sum: number; n: number }>()
  for (const h of feed) {
    if (h.from !== peerId) continue
    const c = claims.get(h.round) ?? { sum: 0, n: 0 }
    c.sum += h.claimedReward
    c.n++
    claims.set(h.round, c)
  }
  const out: HeardRound[] = []
  for (let i = rounds.length - 1; i >= 0; i--) {
    const r = rounds[i]!
    const heard = r.peerRewards[peerId]
    const refused = r.refusedFrom[peerId] ?? 0
    const why = r.refusedWhy?.[peerId]
    const claim = claims.get(r.round)
    // a round that only dropped its groups uncharged (late, a full pool) shows by its reasons
    if (!heard && refused === 0 && !why && !claim) continue
    out.push({
      round: r.round,
      completions: heard?.completions ?? 0,
      reward: heard?.reward,
      refused,
      refusedWhy: why ?? {},
      claimed: claim ? claim.sum / claim.n : undefined,
    })
  }
  return out
}
