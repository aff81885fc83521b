// SAPO's training batch (arXiv 2509.08721; RL Swarm's transplant_trees): L local rollouts as L/G of the
// peer's own groups plus E external rollouts as E/G groups drawn at random from other peers' shared
// groups, skipping tasks the peer already has. Seeded, so a peer's batch can be recomputed by a verifier.
import { SeededRandom } from '../tasks/seeded-random.ts'
import type { ExternalGroup } from './rollout-pool.ts'
import type { RolloutGroup } from './rollouts.ts'

export interface SapoCounts {
  /** local groups per step (the SAPO paper's best setting: 2 groups of G=2, L=4) */
  localGroups: number
  /** external groups per step (E=4 as 2 groups of G=2) */
  externalGroups: number
}

export const DEFAULT_SAPO: Readonly<SapoCounts> = { localGroups: 2, externalGroups: 2 }

export interface TrainingBatch {
  local: RolloutGroup[]
  external: ExternalGroup[]
}

/** Draws `n` distinct items in a seeded order (a partial Fisher–Yates shuffle). */
function drawDistinct<T>(items: readonly T[], n: number, random: SeededRandom): T[] {
  const pool = [...items]
  const out: T[] = []
  while (out.length < n && pool.length > 0) {
    const i = random.int(0, pool.length - 1)
    out.push(pool[i]!)
    pool[i] = pool[pool.length - 1]!
    pool.pop()
  }
  return out
}

/**
 * The batch for one training step. Fewer groups than asked are returned when too few exist (a peer
 * alone trains on its own groups only). `seedKey` names the step, e.g. `${swarmId}/${round}/${peerId}`.
 */
export function sampleTrainingBatch(
  own: readonly RolloutGroup[],
  shared: readonly ExternalGroup[],
  counts: SapoCounts,
  seedKey: string,
): TrainingBatch {
  const random = new SeededRandom(`tabswarm/sapo/${seedKey}`)
  const local = drawDistinct(own, counts.localGroups, random)
  const ownTasks = new Set(own.map((g) => g.taskId))
  // one group per task: the first offer of a task (pool order) stands for it
  const byTask = new Map<string, ExternalGroup>()
  for (const g of shared)
    if (!ownTasks.has(g.group.taskId) && !byTask.has(g.group.taskId)) byTask.set(g.group.taskId, g)
  const external = drawDistinct([...byTask.values()], counts.externalGroups, random)
  return { local, external }
}
