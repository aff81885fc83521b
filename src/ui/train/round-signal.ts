// What a round had to learn from, in words for the round card: GRPO's advantage is zero in a group whose
// rewards are all equal, so a round where no trained group's rewards differed moved the weights by the
// KL term at most (and by nothing without one) — the user should be told, not left to read a flat loss.
import type { RoundRow } from '../../core/learning/learning-state.ts'

/** Groups of the round's training step, and of those how many carried a signal. */
export const groupsTrained = (r: RoundRow): number => r.trainedOn.local + r.trainedOn.external
export const groupsWithSignal = (r: RoundRow): number | undefined => r.trainedOn.informative

/**
 * The sentence for the last round, or undefined where there is nothing to say: a skipped round (its
 * reason is shown elsewhere) or a row saved before signals were counted.
 */
export function roundSignalNote(r: RoundRow): { text: string; empty: boolean } | undefined {
  const signal = groupsWithSignal(r)
  if (r.skipped !== undefined || signal === undefined) return undefined
  const trained = groupsTrained(r)
  if (trained === 0) return { text: `Round ${r.round}: no groups to train on.`, empty: true }
  if (signal === 0)
    return {
      text: `Round ${r.round}: no group's rewards differed: nothing to learn this round.`,
      empty: true,
    }
  return {
    text: `Round ${r.round}: ${signal} of ${trained} groups had a signal (rewards differed).`,
    empty: false,
  }
}

/** The newest round that ran (the card speaks of it, not of a skipped one after it). */
export function lastRunRound(rows: readonly RoundRow[]): RoundRow | undefined {
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i]!.skipped === undefined) return rows[i]
  return undefined
}

/**
 * How many rounds ran (with their signal counted) and in how many some trained group's rewards differed:
 * a round without one has a zero policy-gradient term, whatever its KL term did.
 */
export function signalShare(rows: readonly RoundRow[]): { withSignal: number; rounds: number } {
  let withSignal = 0
  let rounds = 0
  for (const r of rows) {
    const signal = groupsWithSignal(r)
    if (r.skipped !== undefined || signal === undefined) continue
    rounds++
    if (signal > 0) withSignal++
  }
  return { withSignal, rounds }
}
