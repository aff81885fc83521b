import { describe, expect, it } from 'vitest'
import { MICRO_RECIPE } from './micro-recipe.ts'
import { solverFolderFiles, type TrainingChainFile } from './solver-folder.ts'
import { runStep, startRun } from './solver-training.ts'

describe('solverFolderFiles', () => {
  it('writes the training chain as JSON with one step per line', () => {
    const recipe = { ...MICRO_RECIPE, hyperparameters: { ...MICRO_RECIPE.hyperparameters, steps: 3 } }
    const run = startRun(recipe)
    const chain = [runStep(run), runStep(run), runStep(run)]
    const text = new TextDecoder().decode(solverFolderFiles(run, chain, 'test').get('training-chain.json'))
    const file = JSON.parse(text) as TrainingChainFile
    expect(file.steps).toEqual(chain.map(({ step, loss, hash }) => ({ step, loss, hash })))
    expect(file.genesis).toBe(run.genesis)
    expect(file.recipe).toEqual(recipe)
    const stepLines = text.split('\n').filter((line) => line.trimStart().startsWith('{"step":'))
    expect(stepLines).toHaveLength(3)
  })
})
