// Why this tab refused a peer's groups, in words: the reasons its round reports counted (REFUSAL in
// src/core/learning/swarm-round.ts), most frequent first, for the leaderboard and the peer detail.

/** "3 × claimed rewards do not match our verifiers; 1 × its tokens do not decode to its text", or ''. */
export function refusalSummary(why: Readonly<Record<string, number>> | undefined): string {
  return Object.entries(why ?? {})
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([reason, n]) => `${n} × ${reason}`)
    .join('; ')
}
