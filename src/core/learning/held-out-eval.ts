// The held-out evaluation of a learning peer: greedy pass@1 on reserved prompts (held out by prompt
// text, tasks/held-out-set.ts: no round draw and no SFT data of a model trained with the held-out rule
// produces them), so the Train view can show whether the weights improve on prompts the peer never
// trained on. The set is the same for every peer of a swarm — its reasoning families at the difficulties
// it draws and the next, TAB_HELD_OUT_PROMPTS prompts shared out over them — so peers' curves compare. Code families
// have no reserved set and are left out.
import { extractAnswer } from '../tasks/answer-tag.ts'
import { heldOutSet, type HeldOutCell } from '../tasks/held-out-set.ts'
import { stratifiedInterval } from '../tasks/pass-interval.ts'
import { DIFFICULTIES, type Difficulty, type Task } from '../tasks/task.ts'
import type { EvalPoint } from './learning-state.ts'
import type { TaskSource } from './round-tasks.ts'

/**
 * Reserved prompts a tab evaluates, shared out over its cells (rounded up): a narrow swarm gets more a
 * cell, so its curve is as tight as a wide one's. A greedy answer of the shipped tiny model on the tab's
 * solver (onnxruntime-web wasm, one thread, measured in Node on this 2-core machine) took 41 ms (median;
 * 90th percentile 102 ms): 144 prompts (8 a cell over 6 families × 3 difficulties; 24 a cell over the
 * default's 2 families × d1–3, fewer where a cell's reserved slice is smaller) is ≈ 6–15 s every
 * evalEvery rounds in the tab's evaluation solver (beside the rounds), with a 95 % interval of about
 * ±8 points.
 */
export const TAB_HELD_OUT_PROMPTS = 144

/** The swarm's held-out cells: its reasoning families × (the difficulties it draws, and the next one up). */
export function heldOutCells(
  sources: readonly TaskSource[],
  { min, max }: { min: Difficulty; max: Difficulty },
  prompts = TAB_HELD_OUT_PROMPTS,
): HeldOutCell[] {
  const families = sources.filter((s) => s.kind === 'reasoning').map((s) => s.family)
  const levels = DIFFICULTIES.filter((d) => d >= min && d <= max + 1)
  const cells = families.length * levels.length
  return cells === 0 ? [] : heldOutSet(families, levels, Math.ceil(prompts / cells))
}

/** A greedy answer: its text and how many tokens it took. */
export type GreedyAnswer = (task: Task) => Promise<{ text: string; tokens: number }>

/**
 * pass@1 of greedy answers on every cell, one task at a time (the solver is busy with nothing else):
 * the uniform mix over cells with its 95 % interval (tasks/pass-interval.ts), and the share of answers
 * with no parsable <answer> (a gain that is format repair shows there).
 */
export async function evaluateHeldOut(
  cells: readonly HeldOutCell[],
  answer: GreedyAnswer,
  correct: (task: Task, text: string, tokens: number) => Promise<boolean>,
  at: { round: number; policyVersion: number },
): Promise<EvalPoint> {
  const scores = []
  for (const cell of cells) {
    if (cell.tasks.length === 0) continue
    let passed = 0
    let formatted = 0
    for (const task of cell.tasks) {
      const { text, tokens } = await answer(task)
      if (await correct(task, text, tokens)) passed++
      if (extractAnswer(text) !== undefined) formatted++
    }
    const n = cell.tasks.length
    scores.push({ tasks: n, pass: passed / n, formatted: formatted / n })
  }
  if (scores.length === 0) return { ...at, pass1: 0, tasks: 0 }
  const mix = stratifiedInterval(scores)
  return {
    ...at,
    pass1: mix.pass,
    tasks: mix.tasks,
    ci95: [mix.ci95[0], mix.ci95[1]],
    formatFailures: mix.formatFailures,
  }
}
