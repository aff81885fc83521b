// The Train charts' data from the learning store: one point per round, x = round number. A skipped
// round, a round the peer was not there for (a gap in the numbers, e.g. a reload) and a round without
// the value (no training step, so no loss) break the line with a NaN point instead of bridging it.
import type { EvalPoint, RoundRow } from '../../core/learning/learning-state.ts'
import type { XY } from './downsample.ts'

/** One value of a round, undefined when the round has none. */
export type RoundValue = (row: RoundRow) => number | undefined

export const ownReward: RoundValue = (r) => r.ownReward
export const swarmReward: RoundValue = (r) => r.swarmReward
export const roundKl: RoundValue = (r) => r.kl
export const roundGradNorm: RoundValue = (r) => r.gradNorm
export const tokensPerSecond: RoundValue = (r) => r.tokensPerSecond

/** `rows` sorted by round (as the store keeps them). */
export function roundSeries(rows: readonly RoundRow[], value: RoundValue): XY[] {
  const points: XY[] = []
  let previous: number | undefined
  for (const row of rows) {
    if (previous !== undefined && row.round > previous + 1) points.push({ x: previous + 1, y: NaN })
    previous = row.round
    const y = row.skipped === undefined ? value(row) : undefined
    points.push({ x: row.round, y: y === undefined || !Number.isFinite(y) ? NaN : y })
  }
  return points
}

/** Whether any round has a KL (the swarm trains with a KL penalty): only then does the loss chart plot it. */
export function hasKl(rows: readonly RoundRow[]): boolean {
  return rows.some((r) => r.kl !== undefined)
}

/** Held-out pass@1 after each evaluation. */
export function evalSeries(evals: readonly EvalPoint[]): XY[] {
  return evals.map((e) => ({ x: e.round, y: e.pass1 }))
}

/** Its 95 % interval, for the evaluations that have one (histories saved before intervals have none). */
export function evalBand(evals: readonly EvalPoint[]): { x: number; low: number; high: number }[] {
  return evals.flatMap((e) => (e.ci95 ? [{ x: e.round, low: e.ci95[0], high: e.ci95[1] }] : []))
}

/** The rounds to mark as skipped, with why (the marker's tooltip). */
export function skippedMarks(rows: readonly RoundRow[]): { x: number; why: string }[] {
  return rows.flatMap((r) => (r.skipped === undefined ? [] : [{ x: r.round, why: r.skipped }]))
}
