// The data manager's draw: which tasks a peer solves in a round. Deterministic from the swarm, the round
// and the peer, so anyone can recompute a peer's tasks and see it did not pick easy ones.
import { SeededRandom } from '../tasks/seeded-random.ts'
import { DIFFICULTIES, type Difficulty } from '../tasks/task.ts'
import type { TaskRef } from './task-ref.ts'

/** A family a swarm draws from, and whether its tasks are reasoning or code tasks. */
export interface TaskSource {
  kind: TaskRef['kind']
  family: string
}

export interface RoundDraw {
  swarmId: string
  round: number
  peerId: string
  /** tasks per round (GRPO groups the peer generates) */
  count: number
  difficulty: Difficulty
  sources: readonly TaskSource[]
}

export function roundTasks(draw: RoundDraw): TaskRef[] {
  if (draw.sources.length === 0) throw new RangeError('a swarm needs at least one task family')
  if (!Number.isSafeInteger(draw.count) || draw.count < 0) throw new RangeError('task count must be ≥ 0')
  const random = new SeededRandom(`tabswarm/round/${draw.swarmId}/${draw.round}/${draw.peerId}`)
  return Array.from({ length: draw.count }, () => {
    const source = random.pick(draw.sources)
    return { ...source, difficulty: draw.difficulty, seed: random.nextUint32() }
  })
}

/**
 * Whether a swarm drawing from `sources` can draw `ref`: its kind and family are among them and its
 * difficulty is a level the difficulty controller can reach (every peer moves its own).
 */
export const isDrawable = (sources: readonly TaskSource[], ref: TaskRef): boolean =>
  (DIFFICULTIES as readonly number[]).includes(ref.difficulty) &&
  sources.some((s) => s.kind === ref.kind && s.family === ref.family)

/**
 * Whether `ref` is one of the sender's own tasks in the draw's round: a group counts only for a task
 * its sender drew, so no peer can answer (or pre-empt) another's tasks. The draw is recomputed at the
 * difficulty the group declares, since every peer's controller moves its own level.
 */
export function isInSendersDraw(draw: Omit<RoundDraw, 'difficulty'>, ref: TaskRef): boolean {
  return roundTasks({ ...draw, difficulty: ref.difficulty }).some(
    (t) => t.kind === ref.kind && t.family === ref.family && t.seed === ref.seed,
  )
}
