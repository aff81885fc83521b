// SAPO's training batch (arXiv 2509.08721; RL Swarm's transplant_trees): L local rollouts as L/G of the
// peer's own groups plus E external rollouts as E/G groups drawn at random from other peers' shared
// groups, skipping tasks the peer already has. Seeded, so a peer's batch can be recomputed by a verifier.
import { SeededRandom } from '../tasks/seeded-random.ts'
import { isInformative } from './grpo-advantages.ts'
import type { ExternalGroup } from './rollout-pool.ts'
import type { RolloutGroup } from '../protocol/rollouts.ts'
import type { SapoCounts, SapoPick } from './learning-config.ts'
import { cellKey } from './round-tasks.ts'

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

/** drawDistinct, taking items that carry a learning signal first unless `pick` is `uniform`. */
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
 * Each cell's room in a pick of `n` (`signal-by-cell`): its share of the peer's own groups, rounded up,
 * so a pick follows the mix the curriculum drew and a cell the peer did not draw gets none.
 */
function cellShares(own: readonly RolloutGroup[], n: number): Map<string, number> {
  const counts = new Map<string, number>()
  for (const g of own) counts.set(cellKey(g.task), (counts.get(cellKey(g.task)) ?? 0) + 1)
  return new Map([...counts].map(([cell, c]) => [cell, Math.ceil((n * c) / own.length)]))
}

/** `draw` signal first, then the first `n` in that order whose cell still has room. */
function drawByCell<T>(
  items: readonly T[],
  n: number,
  random: SeededRandom,
  rewards: (item: T) => readonly number[],
  cellOf: (item: T) => string,
  room: ReadonlyMap<string, number>,
): T[] {
  const taken = new Map<string, number>()
  const out: T[] = []
  for (const item of draw(items, items.length, random, 'signal', rewards)) {
    if (out.length === n) break
    const cell = cellOf(item)
    const t = taken.get(cell) ?? 0
    if (t >= (room.get(cell) ?? 0)) continue
    taken.set(cell, t + 1)
    out.push(item)
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
  const pick = counts.pick ?? 'uniform'
  const pickFrom = <T>(
    items: readonly T[],
    n: number,
    rewards: (item: T) => readonly number[],
    cellOf: (item: T) => string,
  ): T[] =>
    // with no own group there is no draw to follow: signal first over all
    pick === 'signal-by-cell' && own.length > 0
      ? drawByCell(items, n, random, rewards, cellOf, cellShares(own, n))
      : draw(items, n, random, pick, rewards)
  const local = pickFrom(
    own,
    counts.localGroups,
    (g) => g.rewards,
    (g) => cellKey(g.task),
  )
  const ownTasks = new Set(own.map((g) => g.taskId))
  // one group per task: the first offer of a task (pool order) stands for it — with a signal pick, the
  // first offer that carries one
  const byTask = new Map<string, ExternalGroup>()
  for (const g of shared) {
    const task = g.group.taskId
    if (ownTasks.has(task)) continue
    const held = byTask.get(task)
    if (!held || (pick !== 'uniform' && !isInformative(held.group.rewards) && isInformative(g.group.rewards)))
      byTask.set(task, g)
  }
  const external = pickFrom(
    [...byTask.values()],
    counts.externalGroups,
    (g) => g.group.rewards,
    (g) => cellKey(g.group.task),
  )
  return { local, external }
}
