// The held-out evaluation of a learning peer: greedy pass@1 on a small fixed task set, so the Train view
// can show whether the weights improve on tasks no round ever draws. The set is the same for every peer
// of a swarm (its families at its starting difficulty, fixed seeds), so peers' curves compare.
import type { Difficulty, Task } from '../tasks/task.ts'
import type { EvalPoint } from '../state/learning-store.ts'
import type { TaskSource } from './round-tasks.ts'
import { taskFromRef } from './task-ref.ts'

/** Tasks in the held-out set: enough for a coarse curve, few enough to run between rounds. */
export const HELD_OUT_TASKS = 12
/**
 * First seed of the held-out set. Round draws take u32 seeds at random, so a collision is possible but
 * rare (12 in 2^32 per draw); the SFT data of the shipped models uses seeds below 1,000,000 + 500.
 */
export const HELD_OUT_SEED_START = 3_000_000_000

/** The swarm's held-out tasks: its families in turn, at `difficulty`, on consecutive fixed seeds. */
export function heldOutTasks(
  sources: readonly TaskSource[],
  difficulty: Difficulty,
  count = HELD_OUT_TASKS,
): Task[] {
  if (sources.length === 0) throw new RangeError('a held-out set needs at least one task family')
  return Array.from({ length: count }, (_, i) => {
    const source = sources[i % sources.length]!
    return taskFromRef({ ...source, difficulty, seed: HELD_OUT_SEED_START + i })
  })
}

/** A greedy answer: its text and how many tokens it took. */
export type GreedyAnswer = (task: Task) => Promise<{ text: string; tokens: number }>

/** pass@1 of greedy answers on `tasks`, one task at a time (the solver is busy with nothing else). */
export async function evaluateHeldOut(
  tasks: readonly Task[],
  answer: GreedyAnswer,
  correct: (task: Task, text: string, tokens: number) => Promise<boolean>,
  at: { round: number; policyVersion: number },
): Promise<EvalPoint> {
  let passed = 0
  for (const task of tasks) {
    const { text, tokens } = await answer(task)
    if (await correct(task, text, tokens)) passed++
  }
  return { ...at, pass1: tasks.length === 0 ? 0 : passed / tasks.length, tasks: tasks.length }
}
