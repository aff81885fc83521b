// The round's pool of other peers' rollout groups, filled while the collection window is open. It keeps
// one group per (sender, task) and only groups of the round being collected: a duplicate, a group for
// another round or one arriving after the window closed is dropped and counted, never stored.
import type { RolloutGroup } from './rollouts.ts'

export interface ExternalGroup {
  from: string
  group: RolloutGroup
}

export type PoolVerdict = 'added' | 'duplicate' | 'wrong-round' | 'closed' | 'full'

export interface RolloutPool {
  readonly round: number
  readonly open: boolean
  /** offers a group that `from` sent for `round` */
  offer(from: string, round: number, group: RolloutGroup): PoolVerdict
  /** stops accepting groups; the pool's contents stay for sampling */
  close(): void
  groups(): readonly ExternalGroup[]
  /** dropped offers by verdict, for the dashboards */
  readonly dropped: Readonly<Record<Exclude<PoolVerdict, 'added'>, number>>
}

/** Groups kept per round: a bound on memory whatever other peers send (a few tasks × many peers). */
export const MAX_POOL_GROUPS = 512

export function createRolloutPool(round: number, maxGroups = MAX_POOL_GROUPS): RolloutPool {
  const kept = new Map<string, ExternalGroup>()
  const dropped = { duplicate: 0, 'wrong-round': 0, closed: 0, full: 0 }
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
    offer(from, messageRound, group) {
      if (messageRound !== round) return drop('wrong-round')
      if (!open) return drop('closed')
      const key = `${from}/${group.taskId}`
      if (kept.has(key)) return drop('duplicate')
      if (kept.size >= maxGroups) return drop('full')
      kept.set(key, { from, group })
      return 'added'
    },
    close() {
      open = false
    },
    groups: () => [...kept.values()],
    dropped,
  }
}
