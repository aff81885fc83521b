// Whom this peer votes for at the end of a round: the peers with the round's top mean reward (ties all
// win, so the vote never depends on the order the peers were heard in), within what the coordinator
// takes in one submitWinners call. A round where nobody earned anything has no winner.

/** The coordinator's MAX_WINNERS: most winners one vote may name. */
export const MAX_WINNERS = 32
/** The coordinator's MAX_PEER_ID_LENGTH, in UTF-8 bytes. */
export const MAX_PEER_ID_LENGTH = 128

const encoder = new TextEncoder()

/** True for a peer id the coordinator accepts in a vote (1 to MAX_PEER_ID_LENGTH bytes). */
export function votablePeerId(peerId: string): boolean {
  const length = encoder.encode(peerId).length
  return length > 0 && length <= MAX_PEER_ID_LENGTH
}

/**
 * The winners of a round from each peer's mean reward (own peer included), sorted by peer id. When
 * more than MAX_WINNERS share the top reward, the first MAX_WINNERS by peer id are named. Rewards
 * that are not finite numbers, and peer ids the coordinator would refuse, are left out.
 */
export function roundWinners(meanRewards: Readonly<Record<string, number>>): string[] {
  const scored = Object.entries(meanRewards).filter(([id, r]) => Number.isFinite(r) && votablePeerId(id))
  const top = Math.max(...scored.map(([, r]) => r))
  if (!(top > 0)) return []
  return scored
    .filter(([, r]) => r === top)
    .map(([id]) => id)
    .sort()
    .slice(0, MAX_WINNERS)
}
