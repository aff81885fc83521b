// SAPO's training batch (arXiv 2509.08721; RL Swarm's transplant_trees): L local rollouts as L/G of the
// peer's own groups plus E external rollouts as E/G groups drawn at random from other peers' shared
// groups, skipping tasks the peer already has. Seeded, so a peer's batch can be recomputed by a verifier.
import { SeededRandom } from '../tasks/seeded-random.ts'
import { isInformative } from './grpo-advantages.ts'
import type { ExternalGroup } from './rollout-pool.ts'
import type { RolloutGroup } from '../protocol/rollouts.ts'
import type { SapoCounts, SapoPick } from './learning-config.ts'

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

/** drawDistinct, taking items that carry a learning signal first when `pick` is `signal`. */
function draw<T>(
  items: readonly T[],
  n: number,
  random: SeededRandom,
  pick: SapoPick,
  rewards: (item: T) => readonly number[],
): T[] {
  if (pick === 'uniform') return drawDistinct(items, n, random)
  const first = drawDistinct(
    items.filter((x) => isInformative(rewards(x))),
    n,
    random,
  )
  const rest = items.filter((x) => !isInformative(rewards(x)))
  return [...first, ...drawDistinct(rest, n - first.length, random)]
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
  const pick = counts.pick ?? 'uniform'
  const local = draw(own, counts.localGroups, random, pick, (g) => g.rewards)
  const ownTasks = new Set(own.map((g) => g.taskId))
  // one group per task: the first offer of a task (pool order) stands for it — with `signal`, the first
  // offer that carries one
  const byTask = new Map<string, ExternalGroup>()
  for (const g of shared) {
    const task = g.group.taskId
    if (ownTasks.has(task)) continue
    const held = byTask.get(task)
    if (!held || (pick === 'signal' && !isInformative(held.group.rewards) && isInformative(g.group.rewards)))
      byTask.set(task, g)
  }
  const external = draw([...byTask.values()], counts.externalGroups, random, pick, (g) => g.group.rewards)
  return { local, external }
}
