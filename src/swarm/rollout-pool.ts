// The round's pool of other peers' rollout groups, filled while the collection window is open. It keeps
// one group per (sender, task) and only groups of the round being collected: a duplicate, a group for
// another round or one arriving after the window closed is dropped and counted, never stored. What one
// sender may occupy is bounded, so a flood from one peer cannot push out the others' groups.
import { MAX_TASKS_PER_ROUND } from './learning-config.ts'
import type { RolloutGroup } from './rollouts.ts'

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
  /** dropped offers by verdict, for the dashboards */
  readonly dropped: Readonly<Record<Exclude<PoolVerdict, 'added'>, number>>
}

/** Groups kept per round: a bound on memory whatever other peers send (a few tasks × many peers). */
export const MAX_POOL_GROUPS = 512
/**
 * Groups one sender may hold in a round's pool: the most an honest peer shares in a round (one group per
 * task, at most MAX_TASKS_PER_ROUND tasks). Beyond it a sender's groups are dropped as 'sender-full', so
 * filling the pool takes MAX_POOL_GROUPS / 16 = 32 senders instead of one.
 */
export const MAX_GROUPS_PER_SENDER = MAX_TASKS_PER_ROUND

export interface PoolLimits {
  maxGroups: number
  perSender: number
  /** the trust `from` has earned with us (earnedTrust in peer-standing.ts); 0 for a sender we do not know */
  trustOf: (from: string) => number
}

export function createRolloutPool(
  round: number,
  { maxGroups = MAX_POOL_GROUPS, perSender = MAX_GROUPS_PER_SENDER }: Partial<PoolLimits> = {},
): RolloutPool {
  const kept = new Map<string, ExternalGroup>()
  const held = new Map<string, number>()
  const dropped = { duplicate: 0, 'wrong-round': 0, closed: 0, full: 0, 'sender-full': 0 }
  let open = true
  const drop = (verdict: keyof typeof dropped): PoolVerdict => {
    dropped[verdict]++
    return verdict
  }
  return {
    round,
    get open() {
      return open
    },
    offer(from, messageRound, group, room = maxGroups) {
      if (messageRound !== round) return drop('wrong-round')
      if (!open) return drop('closed')
      const key = `${from}/${group.taskId}`
      if (kept.has(key)) return drop('duplicate')
      const own = held.get(from) ?? 0
      if (own >= perSender) return drop('sender-full')
      if (kept.size >= Math.min(room, maxGroups)) return drop('full')
      kept.set(key, { from, group })
      held.set(from, own + 1)
      return 'added'
    },
    close() {
      open = false
    },
    groups: () => [...kept.values()],
    dropped,
  }
}
