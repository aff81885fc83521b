// The round's pool of other peers' rollout groups, filled while the collection window is open. It keeps
// one group per (sender, task) and only groups of the round being collected: a duplicate, a group for
// another round or one arriving after the window closed is dropped and counted, never stored. What one
// sender may occupy is bounded, so a flood from one peer cannot push out the others' groups; and since a
// fresh key costs nothing, room goes by trust a key has to earn: unknown senders together get a bounded
// share, and a full pool makes room for a more trusted sender at the expense of the least trusted one.
import { MAX_TASKS_PER_ROUND } from './learning-config.ts'
import type { RolloutGroup } from '../protocol/rollouts.ts'

export interface ExternalGroup {
  from: string
  group: RolloutGroup
}

export type PoolVerdict = 'added' | 'duplicate' | 'wrong-round' | 'closed' | 'full' | 'sender-full'

export interface RolloutPool {
  readonly round: number
  readonly open: boolean
  /**
   * offers a group that `from` sent for `round`; `room` is how many groups the pool may hold for this
   * offer (the inbox gives a round that has not started less than its whole size)
   */
  offer(from: string, round: number, group: RolloutGroup, room?: number): PoolVerdict
  /** stops accepting groups; the pool's contents stay for sampling */
  close(): void
  groups(): readonly ExternalGroup[]
}

/** Groups kept per round: a bound on memory whatever other peers send (a few tasks × many peers). */
export const MAX_POOL_GROUPS = 512
/**
 * Groups one sender may hold in a round's pool: the most an honest peer shares in a round (one group per
 * task, at most MAX_TASKS_PER_ROUND tasks). Beyond it a sender's groups are dropped as 'sender-full', so
 * filling the pool takes MAX_POOL_GROUPS / 16 = 32 senders instead of one.
 */
export const MAX_GROUPS_PER_SENDER = MAX_TASKS_PER_ROUND

/**
 * Share of a pool that senders with no earned trust may hold together: however many fresh identities
 * publish, three quarters of the pool stay for peers whose groups our verifiers have accepted before.
 */
export const MAX_UNKNOWN_SHARE = 1 / 4

export interface PoolLimits {
  maxGroups: number
  perSender: number
  /**
   * the trust `from` has earned with us (earnedTrust in peer-standing.ts), 0 for a sender we do not know;
   * without it the pool is first-come and no share is kept from unknown senders
   */
  trustOf: (from: string) => number
  /** told of every dropped offer, its sender and why (the inbox's drop log) */
  onDrop: (from: string, verdict: Exclude<PoolVerdict, 'added'>) => void
}

export function createRolloutPool(
  round: number,
  {
    maxGroups = MAX_POOL_GROUPS,
    perSender = MAX_GROUPS_PER_SENDER,
    trustOf,
    onDrop,
  }: Partial<PoolLimits> = {},
): RolloutPool {
  const kept = new Map<string, ExternalGroup>()
  /** each sender's keys in `kept`, oldest first */
  const held = new Map<string, string[]>()
  // Without a trustOf every sender is alike and the pool first-come (within perSender).
  const unknownShare = trustOf ? MAX_UNKNOWN_SHARE : 1
  const trustIn = trustOf ?? (() => 0)
  let unknownHeld = 0
  let open = true
  const drop = (from: string, verdict: Exclude<PoolVerdict, 'added'>): PoolVerdict => {
    onDrop?.(from, verdict)
    return verdict
  }
  /** the held sender with the least trust below `than`, if any */
  const leastTrustedBelow = (than: number): string | undefined => {
    let least: string | undefined
    let leastTrust = than
    for (const from of held.keys()) {
      const trust = trustIn(from)
      if (trust < leastTrust) [least, leastTrust] = [from, trust]
    }
    return least
  }
  const remove = (from: string): void => {
    const keys = held.get(from) ?? []
    const newest = keys.pop()
    if (newest !== undefined) kept.delete(newest)
    if (keys.length === 0) held.delete(from)
    if (trustIn(from) <= 0) unknownHeld--
    // the evicted group had no room after all
    drop(from, 'full')
  }
  return {
    round,
    get open() {
      return open
    },
    offer(from, messageRound, group, room = maxGroups) {
      if (messageRound !== round) return drop(from, 'wrong-round')
      if (!open) return drop(from, 'closed')
      const key = `${from}/${group.taskId}`
      if (kept.has(key)) return drop(from, 'duplicate')
      const own = held.get(from) ?? []
      if (own.length >= perSender) return drop(from, 'sender-full')
      const trust = trustIn(from)
      const limit = Math.min(room, maxGroups)
      if (trust <= 0 && unknownHeld >= Math.floor(limit * unknownShare)) return drop(from, 'full')
      if (kept.size >= limit) {
        const evicted = leastTrustedBelow(trust)
        if (evicted === undefined) return drop(from, 'full')
        remove(evicted)
      }
      kept.set(key, { from, group })
      held.set(from, [...(held.get(from) ?? []), key])
      if (trust <= 0) unknownHeld++
      return 'added'
    },
    close() {
      open = false
    },
    groups: () => [...kept.values()],
  }
}
