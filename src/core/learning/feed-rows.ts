// What a round reports to the Train view's gossip feed. The room is small (HEARD_PER_ROUND completions),
// and a round attack sends dozens of refused groups from fresh keys: taken first come, first served,
// they filled it and the feed showed none of the peers that teach. So accepted groups' completions come
// first, refusals take what room is left, and the rows keep the order they were judged in.
import type { HeardRollout } from './learning-state.ts'

export interface FeedRows {
  /** one judged group's completions (refused ones carry no reward of ours) */
  add(rows: readonly HeardRollout[]): void
  /** at most `limit` rows: accepted first, then refused, in judged order */
  take(): HeardRollout[]
}

export function feedRows(limit: number): FeedRows {
  // each kind is capped as it comes, so a flood costs no memory; `at` keeps the judged order
  const accepted: { at: number; row: HeardRollout }[] = []
  const refused: { at: number; row: HeardRollout }[] = []
  let at = 0
  return {
    add(rows) {
      for (const row of rows) {
        const into = row.reward === undefined ? refused : accepted
        if (into.length < limit) into.push({ at, row })
        at++
      }
    },
    take() {
      const kept = [...accepted, ...refused.slice(0, Math.max(0, limit - accepted.length))]
      return kept.sort((x, y) => x.at - y.at).map((k) => k.row)
    },
  }
}
