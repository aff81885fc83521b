import { describe, expect, it } from 'vitest'
import { MICRO_RECIPE } from './micro-recipe.ts'
import { lastStep, learningRate, nextBatch, runStep, startRun, type SolverRecipe } from './solver-training.ts'

const withSchedule = (steps: number, stopAfter?: number): SolverRecipe => ({
  ...MICRO_RECIPE,
  hyperparameters: { ...MICRO_RECIPE.hyperparameters, steps, stopAfter },
})

describe('a run stopped early (stopAfter)', () => {
  it('ends at stopAfter of the full schedule', () => {
    const run = startRun(withSchedule(5, 2))
    runStep(run)
    runStep(run)
    expect(() => nextBatch(run)).toThrow(/complete after 2 steps/)
    expect(lastStep(withSchedule(5).hyperparameters)).toBe(5)
  })

  it('replays the full run step for step: same genesis, hashes and learning rates', () => {
    const stopped = startRun(withSchedule(5, 2))
    const full = startRun(withSchedule(5))
    expect(stopped.genesis).toBe(full.genesis)
    for (let i = 0; i < 2; i++) expect(runStep(stopped)).toEqual(runStep(full))
    expect(learningRate(withSchedule(5, 2).hyperparameters, 2)).toBe(
      learningRate(withSchedule(5).hyperparameters, 2),
    )
  })

  it('commits to the schedule length: a shorter schedule is another run', () => {
    expect(startRun(withSchedule(4)).genesis).not.toBe(startRun(withSchedule(5)).genesis)
  })

  it('refuses a stop step outside the schedule', () => {
    for (const stop of [0, 6, 2.5])
      expect(() => lastStep(withSchedule(5, stop).hyperparameters)).toThrow(
        /stopAfter must be an integer in 1…5/,
      )
  })
})
