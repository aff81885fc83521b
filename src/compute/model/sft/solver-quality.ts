// How well a model solves held-out reasoning tasks, next to the best an answer-blind model can do:
// always giving the one answer most held-out tasks share.
import { reasoningFamily } from '../../../core/tasks/reasoning-families.ts'
import type { ReasoningTask } from '../../../core/tasks/task.ts'
import { verifyReasoning } from '../../../core/tasks/verify-reasoning.ts'

export interface BestConstant {
  /** The answer (canonical form) that the most tasks share; ties go to the first met. */
  readonly answer: string
  /** Share of tasks it answers right, 0…1. */
  readonly rate: number
}

export function bestConstantAnswer(tasks: readonly ReasoningTask[]): BestConstant {
  if (tasks.length === 0) throw new RangeError('best constant answer of no tasks')
  const counts = new Map<string, number>()
  for (const task of tasks) {
    const canonical = reasoningFamily(task.family)?.canonical(task.answer)
    if (canonical === undefined) throw new RangeError(`task ${task.id} has no canonical answer`)
    counts.set(canonical, (counts.get(canonical) ?? 0) + 1)
  }
  let best = { answer: '', count: 0 }
  for (const [answer, count] of counts) if (count > best.count) best = { answer, count }
  return { answer: best.answer, rate: best.count / tasks.length }
}

export interface SolveScore {
  readonly tasks: number
  /** Share with a correct final answer (pass@1 of greedy decoding), 0…1. */
  readonly pass: number
  /** Share with an <answer>…</answer> at all. */
  readonly formatted: number
}

/** Scores one completion per task with the tasks' verifier. */
export function scoreCompletions(
  tasks: readonly ReasoningTask[],
  completions: readonly string[],
): SolveScore {
  if (tasks.length !== completions.length || tasks.length === 0)
    throw new RangeError(`need one completion per task (${completions.length} for ${tasks.length})`)
  let pass = 0
  let formatted = 0
  tasks.forEach((task, i) => {
    const check = verifyReasoning(task, completions[i]!)
    if (check.correct) pass++
    if (check.formatted) formatted++
  })
  return { tasks: tasks.length, pass: pass / tasks.length, formatted: formatted / tasks.length }
}

/**
 * Several difficulties of one family together: task-weighted pass and format rates, and the best
 * constant taken per difficulty (a model can tell difficulties apart from the prompt, so the baseline
 * may too — the stricter comparison).
 */
export function combineScores(parts: readonly { score: SolveScore; constant: BestConstant }[]): {
  score: SolveScore
  constantRate: number
} {
  const tasks = parts.reduce((n, p) => n + p.score.tasks, 0)
  const mean = (of: (p: (typeof parts)[number]) => number) =>
    parts.reduce((a, p) => a + of(p) * p.score.tasks, 0) / tasks
  return {
    score: { tasks, pass: mean((p) => p.score.pass), formatted: mean((p) => p.score.formatted) },
    constantRate: mean((p) => p.constant.rate),
  }
}

/** The window for a model that leaves reinforcement learning room: ≥ constant + 15 points, < 70%. */
export const MIN_MARGIN = 0.15
export const MAX_PASS = 0.7

export function inTargetWindow(pass: number, constant: number): boolean {
  return pass >= constant + MIN_MARGIN && pass < MAX_PASS
}
