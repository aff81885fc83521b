// CI's check that the shipped models (tabswarm-tiny, tabswarm-micro of the learning tests, and
// tabswarm-next, tiny's next recipe trained to its end: the learning benches' candidate) came from their recipes: replay the first training steps and compare them with the shipped step-hash
// chain; check every shipped file against the manifest.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCheckpoint } from '../checkpoint.ts'
import { parseHfConfig } from '../load/hf-config.ts'
import { parseManifest } from '../load/model-manifest.ts'
import { parameterCount } from '../f64/flat-params.ts'
import { MICRO_NAME, MICRO_RECIPE } from './micro-recipe.ts'
import { NEXT_SOLVER_RECIPE, SOLVER_RECIPE } from './solver-recipe.ts'
import { SOLVER_NAME, type TrainingChainFile } from './solver-folder.ts'
import { lastStep, runStep, startRun } from './solver-training.ts'
import { sha256Hex } from './training-chain.ts'

/** Steps replayed in CI: enough to cover data order, init, optimizer and hashing, fast enough for CI. */
const REPLAYED_STEPS = 3

// Size budgets: tiny's weights a few MB at most (the solver issue); micro ≤ 20k parameters and the
// whole folder under 200 KB (the learning issue's micro model).
describe.each([
  {
    dir: SOLVER_NAME,
    name: SOLVER_NAME,
    recipe: SOLVER_RECIPE,
    maxParameters: Infinity,
    maxFolderBytes: 4_000_000,
  },
  {
    dir: 'tabswarm-next',
    name: SOLVER_NAME,
    recipe: NEXT_SOLVER_RECIPE,
    maxParameters: Infinity,
    maxFolderBytes: 4_000_000,
  },
  {
    dir: MICRO_NAME,
    name: MICRO_NAME,
    recipe: MICRO_RECIPE,
    maxParameters: 20_000,
    maxFolderBytes: 200 * 1024,
  },
])('shipped $dir', ({ dir, name, recipe, maxParameters, maxFolderBytes }) => {
  const folder = join(import.meta.dirname, '../../../../public/models', dir)
  const read = (path: string) => new Uint8Array(readFileSync(join(folder, path)))
  const chain = JSON.parse(new TextDecoder().decode(read('training-chain.json'))) as TrainingChainFile

  it('was trained with the recipe in the source', () => {
    expect(chain.recipe).toEqual(recipe)
    expect(chain.steps).toHaveLength(lastStep(recipe.hyperparameters))
  })

  it(`replays the first ${REPLAYED_STEPS} steps of its training chain bit for bit`, () => {
    const run = startRun(chain.recipe)
    expect(sha256Hex(new TextEncoder().encode(run.tokenizerText))).toBe(chain.tokenizerHash)
    expect(run.genesis).toBe(chain.genesis)
    for (let i = 0; i < REPLAYED_STEPS; i++) {
      const step = runStep(run)
      expect({ step: step.step, loss: step.loss, hash: step.hash }).toEqual(chain.steps[i])
    }
  })

  it('matches the hashes pinned in tabswarm.json', () => {
    const manifest = parseManifest(read('tabswarm.json'))
    expect(Object.keys(manifest.files).sort()).toEqual(
      ['config.json', 'model.safetensors', 'onnx/model.onnx', 'tokenizer.json', 'training-chain.json'].sort(),
    )
    for (const [path, hash] of Object.entries(manifest.files)) expect(sha256Hex(read(path)), path).toBe(hash)
    expect(manifest.weightsHash).toBe(manifest.files['model.safetensors'])
    expect(chain.weightsHash).toBe(manifest.weightsHash)
    expect(chain.tokenizerHash).toBe(manifest.files['tokenizer.json'])
  })

  it('describes one model in config.json, the checkpoint and the recipe', () => {
    const { config, eosIds } = parseHfConfig(read('config.json'))
    expect(config).toEqual(recipe.config)
    expect(readCheckpoint(read('model.safetensors')).config).toEqual(recipe.config)
    expect(eosIds).toEqual([recipe.config.vocabSize - 1])
    expect(parameterCount(recipe.config)).toBeLessThanOrEqual(maxParameters)
    const manifest = parseManifest(read('tabswarm.json'))
    expect(manifest.name).toBe(name)
    const files = [...Object.keys(manifest.files), 'tabswarm.json']
    expect(files.reduce((n, path) => n + read(path).length, 0)).toBeLessThan(maxFolderBytes)
  })
})
