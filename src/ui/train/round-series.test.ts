import { describe, expect, it } from 'vitest'
import { roundRow } from '../../../test-support/train/round-row-fixture.ts'
import {
  evalBand,
  evalSeries,
  hasKl,
  ownReward,
  roundKl,
  roundGradNorm,
  roundSeries,
  skippedMarks,
  swarmReward,
} from './round-series.ts'

describe('round series', () => {
  it('gives one point per round', () => {
    const rows = [roundRow(0, { ownReward: 0.1 }), roundRow(1, { ownReward: 0.3 })]
    expect(roundSeries(rows, ownReward)).toEqual([
      { x: 0, y: 0.1 },
      { x: 1, y: 0.3 },
    ])
  })

  it('breaks the line at skipped rounds, missing rounds and missing values', () => {
    const rows = [
      roundRow(3),
      roundRow(4, { skipped: 'joined after the collection window closed' }),
      roundRow(5, { swarmReward: undefined }),
      roundRow(9),
    ]
    const ys = roundSeries(rows, swarmReward).map((p) => [p.x, p.y])
    expect(ys).toEqual([
      [3, 0.4],
      [4, NaN],
      [5, NaN],
      [6, NaN],
      [9, 0.4],
    ])
    // a round without a training step (or saved before gradient norms were kept) has no point
    expect(roundSeries([roundRow(0)], roundGradNorm)[0]!.y).toBeNaN()
    expect(roundSeries([roundRow(0, { gradNorm: 0.25 })], roundGradNorm)[0]!.y).toBe(0.25)
  })

  it('lists the skipped rounds with why', () => {
    const rows = [roundRow(1), roundRow(2, { skipped: 'tab was reloaded' })]
    expect(skippedMarks(rows)).toEqual([{ x: 2, why: 'tab was reloaded' }])
  })

  it('plots pass@1 at the round of each evaluation', () => {
    expect(evalSeries([{ round: 4, policyVersion: 5, pass1: 0.25, tasks: 32 }])).toEqual([{ x: 4, y: 0.25 }])
  })

  it('bands the evaluations that carry an interval; an old saved one without it gets none', () => {
    const old = { round: 4, policyVersion: 5, pass1: 0.25, tasks: 12 }
    const now = { round: 9, policyVersion: 8, pass1: 0.4, tasks: 91, ci95: [0.3, 0.5] as [number, number] }
    expect(evalBand([old, now])).toEqual([{ x: 9, low: 0.3, high: 0.5 }])
  })

  it('plots the KL only for swarms that train with a KL penalty, breaking the line where a round has none', () => {
    expect(hasKl([roundRow(0), roundRow(1)])).toBe(false)
    const rows = [roundRow(0, { kl: 0.02 }), roundRow(1, { loss: undefined }), roundRow(2, { kl: 0.05 })]
    expect(hasKl(rows)).toBe(true)
    expect(roundSeries(rows, roundKl).map((p) => [p.x, p.y])).toEqual([
      [0, 0.02],
      [1, NaN],
      [2, 0.05],
    ])
  })
})
