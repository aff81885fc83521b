// The held-out evaluation set, by prompt text: for a family and difficulty, the distinct reserved prompts
// (reserved-prompts.ts) met when scanning seeds HELD_OUT_SCAN_START, +1, +2, … in order. Training and
// the round draw skip reserved prompts, so these are prompts no learner was shown — whatever seed it
// drew. Several families have small prompt spaces at difficulty 1 (base conversion: 60 prompts, 5 of
// them reserved), so a cell may hold fewer than asked: the scan then ends on a documented bound and the
// set says it is the whole reserved slice as far as the scan could tell.
import { generateReasoningTask } from './generate-reasoning-task.ts'
import { isReservedPrompt } from './reserved-prompts.ts'
import type { Difficulty, ReasoningTask } from './task.ts'

/** First seed scanned. Any fixed start works (exclusion is by text, not by seed); 0 is the simplest. */
export const HELD_OUT_SCAN_START = 0
/** Reserved prompts per family and difficulty, where that many exist. */
export const HELD_OUT_PER_CELL = 500
/**
 * The scan stops after this many seeds in a row gave no prompt (reserved or not) it had not met: the
 * space is then taken as seen whole. Measured: the last new prompt of a small space comes at seed 203
 * (base conversion d1, 60 prompts), 4,417 (logic d1, 256), 18,921 (modular arithmetic d1, 1,910).
 */
export const EXHAUSTED_AFTER = 20_000
/** And after this many seeds in all, found or not: the bound on a cell's build time. */
export const SCAN_BOUND = 60_000

export interface HeldOutCell {
  readonly family: string
  readonly difficulty: Difficulty
  /** Distinct reserved prompts, in scan order (the task of the first seed that gave each). */
  readonly tasks: readonly ReasoningTask[]
  /** True when fewer than asked were found: `tasks` is every reserved prompt the scan met. */
  readonly exhausted: boolean
  /** Seeds scanned. */
  readonly scanned: number
}

const cache = new Map<string, HeldOutCell>()

/**
 * Up to `count` distinct reserved prompts of one cell. Pure (the same arguments give the same set on
 * every peer) and memoised: a cell costs ≈ 25 µs a seed, ≈ 0.1 s for 500 of a large space and up to
 * ≈ 1.5 s for a small one scanned to its bound.
 */
export function heldOutCell(family: string, difficulty: Difficulty, count = HELD_OUT_PER_CELL): HeldOutCell {
  const key = `${family}/${difficulty}/${count}`
  const known = cache.get(key)
  if (known) return known
  const seen = new Set<string>()
  const tasks: ReasoningTask[] = []
  let seed = HELD_OUT_SCAN_START
  let lastNew = seed
  while (
    tasks.length < count &&
    seed - HELD_OUT_SCAN_START < SCAN_BOUND &&
    seed - lastNew < EXHAUSTED_AFTER
  ) {
    const task = generateReasoningTask(family, difficulty, seed)
    if (!seen.has(task.prompt)) {
      seen.add(task.prompt)
      lastNew = seed
      if (isReservedPrompt(task.prompt)) tasks.push(task)
    }
    seed++
  }
  const cell = {
    family,
    difficulty,
    tasks,
    exhausted: tasks.length < count,
    scanned: seed - HELD_OUT_SCAN_START,
  }
  cache.set(key, cell)
  return cell
}

/** Every cell of families × difficulties, family-major: the uniform mix over cells weighs each alike. */
export function heldOutSet(
  families: readonly string[],
  difficulties: readonly Difficulty[],
  perCell = HELD_OUT_PER_CELL,
): HeldOutCell[] {
  return families.flatMap((family) =>
    difficulties.map((difficulty) => heldOutCell(family, difficulty, perCell)),
  )
}
