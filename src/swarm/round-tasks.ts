// The data manager's draw: which tasks a peer solves in a round. Deterministic from the swarm, the round
// and the peer, so anyone can recompute a peer's tasks and see it did not pick easy ones.
import { SeededRandom } from '../tasks/seeded-random.ts'
import type { Difficulty } from '../tasks/task.ts'
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
