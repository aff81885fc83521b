import { describe, expect, it } from 'vitest'
import { batchGradient } from '../f64/sft-step.ts'
import { MICRO_RECIPE } from './micro-recipe.ts'
import { assignSequences, gradientPool } from './gradient-pool.ts'
import { completeStep, nextBatch, runStep, startRun } from './solver-training.ts'

const recipe = { ...MICRO_RECIPE, hyperparameters: { ...MICRO_RECIPE.hyperparameters, steps: 3 } }

describe('assignSequences', () => {
  it('gives the longest sequences out first, each to the least-loaded worker', () => {
    expect(assignSequences([40, 80, 60, 30], 2)).toEqual([1, 0, 1, 0])
    expect(assignSequences([5, 5, 5], 2)).toEqual([0, 1, 0])
    expect(assignSequences([7], 3)).toEqual([0])
  })
})

describe('gradientPool', () => {
  it('gives the bits of a one-thread step, for several worker counts', async () => {
    const alone = startRun(recipe)
    const expected = [runStep(alone), runStep(alone), runStep(alone)].map((s) => s.hash)
    for (const workers of [2, 3]) {
      const run = startRun(recipe)
      const pool = gradientPool(run.model, workers)
      try {
        const hashes: string[] = []
        for (let i = 0; i < 3; i++)
          hashes.push(completeStep(run, await pool.batchGradient(nextBatch(run))).hash)
        expect(hashes, `${workers} workers`).toEqual(expected)
      } finally {
        await pool.close()
      }
    }
  })

  it('fails the step with the reason when a worker cannot compute a sequence', async () => {
    const run = startRun(recipe)
    const pool = gradientPool(run.model, 2)
    try {
      const batch = nextBatch(run)
      const bad = { ids: Int32Array.from([1, 2, 99_999]), lossFrom: 2 }
      await expect(pool.batchGradient([...batch.slice(0, 1), bad])).rejects.toThrow(
        /gradient worker.*vocabulary/,
      )
      expect(() => batchGradient(run.model, [bad])).toThrow(/vocabulary/)
      await expect(pool.batchGradient(batch)).rejects.toThrow(/gradient worker.*vocabulary/)
    } finally {
      await pool.close()
    }
  })
})
