// Which task to solve: the families a person can pick (every reasoning family and code template, or
// 'any', which walks through all of them by seed), and the task the settings name. Deterministic, like
// the swarm's own draws: the same settings give the same task on every peer.
import { CODE_TEMPLATES } from '../../core/tasks/code-templates.ts'
import { generateCodeTask } from '../../core/tasks/generate-code-task.ts'
import { generateReasoningTask } from '../../core/tasks/generate-reasoning-task.ts'
import { REASONING_FAMILIES } from '../../core/tasks/reasoning-families.ts'
import type { Difficulty, Task } from '../../core/tasks/task.ts'

export const ANY_FAMILY = 'any'

export interface FamilyOption {
  /** 'reasoning/<family>' or 'code/<template>' */
  readonly id: string
  readonly label: string
}

export const FAMILY_OPTIONS: readonly FamilyOption[] = [
  ...REASONING_FAMILIES.map((f) => ({ id: `reasoning/${f.name}`, label: f.name })),
  ...CODE_TEMPLATES.map((t) => ({ id: `code/${t.name}`, label: `code: ${t.name}` })),
]

/** The family 'any' stands for at `seed`: each family in turn, so a batch sees all of them. */
export function familyAt(family: string, seed: number): string {
  if (family !== ANY_FAMILY) return family
  const n = FAMILY_OPTIONS.length
  return FAMILY_OPTIONS[((seed % n) + n) % n]!.id
}

/** The task of (family, difficulty, seed); throws a RangeError naming what is wrong. */
export function drawTask(family: string, difficulty: Difficulty, seed: number): Task {
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new RangeError(`the seed must be a whole number ≥ 0 (got ${seed})`)
  const id = familyAt(family, seed)
  const slash = id.indexOf('/')
  const kind = id.slice(0, slash)
  const name = id.slice(slash + 1)
  if (kind === 'reasoning') return generateReasoningTask(name, difficulty, seed)
  if (kind === 'code') return generateCodeTask(name, difficulty, seed)
  throw new RangeError(`unknown task family "${family}"`)
}
