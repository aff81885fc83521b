// The exact verifier of reasoning tasks: the last <answer> of a completion against the task's answer,
// both in the family's canonical form.
import { extractAnswer } from './answer-tag.ts'
import { reasoningFamily } from './reasoning-families.ts'
import type { ReasoningTask } from './task.ts'

export interface ReasoningCheck {
  /** the completion has an <answer>…</answer> */
  formatted: boolean
  correct: boolean
}

export function verifyReasoning(task: ReasoningTask, completion: string): ReasoningCheck {
  const family = reasoningFamily(task.family)
  if (!family) throw new RangeError(`unknown reasoning task family "${task.family}"`)
  const given = extractAnswer(completion)
  if (given === undefined) return { formatted: false, correct: false }
  const expected = family.canonical(task.answer)
  return { formatted: true, correct: expected !== undefined && family.canonical(given) === expected }
}
