// What a peer drops of the others' rollouts before a round judges them — a message that breaks the
// schema or names a round it is not collecting, a group past its sender's share of the pool, late, a
// repeat, or with no room left — counted against its sender by reason, so that a flood shows on the
// leaderboard under the identities that sent it, not only in a total. The round report takes the counts
// once per round (runRound); only what a sender controls is charged against its score.
import { createRecentMap } from '../protocol/recent-map.ts'

/** Why a group or message was dropped before judging, as the Train view shows it. */
export const DROPPED = {
  schema: 'its message breaks the rollouts schema',
  'wrong-round': 'it was sent for a round we are not collecting',
  duplicate: 'it repeats a task it already sent this round',
  closed: 'it arrived after the collection window closed',
  full: 'the pool had no room left for a sender of its trust',
  'sender-full': 'it sent more groups in a round than a peer draws tasks',
} as const
export type DropReason = keyof typeof DROPPED

/**
 * Drops charged against the sender's score: a body no honest encoder writes, or more groups than a
 * round's tasks. The others are what an honest peer meets too — a slow link (late, another round), a
 * reload that sends a round's groups again, a pool that strangers filled — so they are counted only.
 */
export const CHARGED_DROPS: ReadonlySet<DropReason> = new Set<DropReason>(['schema', 'sender-full'])

/**
 * Senders named per round: a round report is saved and posted with the history, and fresh keys are free,
 * so the names are bounded (the most recent kept) while the total counts every drop. As many as the
 * peers a tab remembers (MAX_KNOWN_PEERS in peer-standing.ts).
 */
export const MAX_DROP_SENDERS = 256

export interface Drops {
  /** every drop since the last take */
  total: number
  /** by sender (at most MAX_DROP_SENDERS of them), its drops by reason */
  bySender: Record<string, Partial<Record<DropReason, number>>>
}

export interface DropLog {
  record(from: string, reason: DropReason): void
  /** the drops since the last take, and a fresh start */
  take(): Drops
}

export function createDropLog(maxSenders = MAX_DROP_SENDERS): DropLog {
  let bySender = createRecentMap<Partial<Record<DropReason, number>>>(maxSenders)
  let total = 0
  return {
    record(from, reason) {
      total++
      const counts = bySender.get(from) ?? {}
      counts[reason] = (counts[reason] ?? 0) + 1
      bySender.set(from, counts)
    },
    take() {
      const drops = { total, bySender: Object.fromEntries(bySender.entries()) }
      bySender = createRecentMap(maxSenders)
      total = 0
      return drops
    },
  }
}
