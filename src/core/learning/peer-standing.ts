// What this peer makes of the others it hears: per sender, the rounds it shared in, the rewards our
// verifiers gave its completions, its refused groups and why, and a score that refused groups lower. A
// sender below SCORE_IGNORE is ignored: its groups are neither re-scored nor trained on (runRound's
// `ignored`), so a peer that sends garbage or forged rollouts stops costing us work. Pure: a round's
// report in, new records out.
import type { PeerLearning } from './learning-state.ts'
import type { RoundReport } from './swarm-round.ts'

/** A sender's score before anything is known of it. */
export const SCORE_START = 1
/** Lost per refused group: two refused groups are a mistake, three in a row are a pattern. */
export const REFUSAL_PENALTY = 0.2
/** Regained per round with accepted groups and none refused, up to SCORE_START. */
export const SCORE_RECOVERY = 0.05
/** Below this the sender's rollouts are ignored (3 refused groups from the start). */
export const SCORE_IGNORE = 0.5

/**
 * Senders remembered: the history posts its peer map with every round and saves it, so a flood of
 * strangers (fresh keys are free) must not grow it. Far more than the peers one tab hears in a round.
 */
export const MAX_KNOWN_PEERS = 256

export const isIgnored = (peers: Readonly<Record<string, PeerLearning>>, peerId: string): boolean =>
  (peers[peerId]?.score ?? SCORE_START) < SCORE_IGNORE

/**
 * The trust a sender has earned with us, for the rollout pool's room (src/core/learning/rollout-pool.ts): the
 * rounds in which our verifiers accepted its groups, weighed by its score. A fresh key starts at 0 and an
 * ignored one counts as 0, so new identities cost nothing to make but earn nothing until they share
 * groups that our own verifiers accept, round after round.
 */
export function earnedTrust(peers: Readonly<Record<string, PeerLearning>>, peerId: string): number {
  const known = peers[peerId]
  return known === undefined || known.score < SCORE_IGNORE ? 0 : known.rounds * known.score
}

/** `known` counts of refusal reasons plus this round's; nothing when neither has any. */
function withReasons(
  known: Readonly<Record<string, number>> | undefined,
  round: Readonly<Record<string, number>> | undefined,
): Pick<PeerLearning, 'refusedWhy'> {
  if (!round) return known ? { refusedWhy: known } : {}
  const refusedWhy = { ...known }
  for (const [why, n] of Object.entries(round)) refusedWhy[why] = (refusedWhy[why] ?? 0) + n
  return { refusedWhy }
}

/** The records after `report`: senders heard or refused this round are updated, others kept as they were. */
export function updatePeerStanding(
  peers: Readonly<Record<string, PeerLearning>>,
  report: Pick<RoundReport, 'round' | 'peerRewards' | 'refusedFrom' | 'refusedWhy'>,
  nameOf: (peerId: string) => string,
): Record<string, PeerLearning> {
  const next = { ...peers }
  const { peerRewards, refusedFrom } = report
  // Drops counted but not charged (late, another round's, no room) add to a known sender's reasons; a
  // stranger gets no record for them alone — a late message is no reason to remember a free key.
  const senders = new Set([
    ...Object.keys(peerRewards),
    ...Object.keys(refusedFrom),
    ...Object.keys(report.refusedWhy ?? {}).filter((id) => peers[id] !== undefined),
  ])
  for (const id of senders) {
    const known = peers[id] ?? {
      name: nameOf(id),
      rounds: 0,
      lastRound: report.round,
      rewardSum: 0,
      completions: 0,
      refused: 0,
      score: SCORE_START,
    }
    const heard = peerRewards[id]
    const refused = refusedFrom[id] ?? 0
    const score =
      refused > 0
        ? known.score - refused * REFUSAL_PENALTY
        : Math.min(SCORE_START, known.score + SCORE_RECOVERY)
    next[id] = {
      ...known,
      rounds: known.rounds + (heard ? 1 : 0),
      lastRound: Math.max(known.lastRound, report.round),
      rewardSum: known.rewardSum + (heard ? heard.reward * heard.completions : 0),
      completions: known.completions + (heard?.completions ?? 0),
      refused: known.refused + refused,
      ...withReasons(known.refusedWhy, report.refusedWhy?.[id]),
      score: Math.max(0, score),
    }
  }
  return keepKnown(next)
}

/**
 * The MAX_KNOWN_PEERS records to keep: first those with earned trust (earnedTrust > 0), then the rest;
 * within each the most recently heard, and among those heard as recently the best standing (score, then
 * completions). Trust first, since fresh keys are free: a flood of strangers in a round that an honest
 * peer's groups missed must not forget what that peer earned. A sender forgotten starts over at
 * SCORE_START when heard again, as a fresh key would.
 */
function keepKnown(peers: Record<string, PeerLearning>): Record<string, PeerLearning> {
  const ids = Object.keys(peers)
  if (ids.length <= MAX_KNOWN_PEERS) return peers
  const trusted = (id: string) => (earnedTrust(peers, id) > 0 ? 1 : 0)
  const rank = (a: PeerLearning, b: PeerLearning) =>
    b.lastRound - a.lastRound || b.score - a.score || b.completions - a.completions
  const kept = ids
    .sort((a, b) => trusted(b) - trusted(a) || rank(peers[a]!, peers[b]!) || (a < b ? -1 : 1))
    .slice(0, MAX_KNOWN_PEERS)
  return Object.fromEntries(kept.map((id) => [id, peers[id]!]))
}
