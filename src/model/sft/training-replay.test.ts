// CI's check that the shipped tabswarm-tiny came from its recipe: replay the first training steps and
// compare them with the shipped step-hash chain; check every shipped file against the manifest.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readCheckpoint } from '../checkpoint.ts'
import { parseHfConfig } from '../load/hf-config.ts'
import { parseManifest } from '../load/model-manifest.ts'
import { SOLVER_RECIPE } from './solver-recipe.ts'
import type { TrainingChainFile } from './solver-folder.ts'
import { runStep, startRun } from './solver-training.ts'
import { sha256Hex } from './training-chain.ts'

const FOLDER = join(import.meta.dirname, '../../../public/models/tabswarm-tiny')
const read = (path: string) => new Uint8Array(readFileSync(join(FOLDER, path)))
const chain = JSON.parse(new TextDecoder().decode(read('training-chain.json'))) as TrainingChainFile

/** Steps replayed in CI: enough to cover data order, init, optimizer and hashing, fast enough for CI. */
const REPLAYED_STEPS = 3

describe('shipped tabswarm-tiny', () => {
  it('was trained with the recipe in the source', () => {
    expect(chain.recipe).toEqual(SOLVER_RECIPE)
    expect(chain.steps).toHaveLength(SOLVER_RECIPE.hyperparameters.steps)
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
    expect(config).toEqual(SOLVER_RECIPE.config)
    expect(readCheckpoint(read('model.safetensors')).config).toEqual(SOLVER_RECIPE.config)
    expect(eosIds).toEqual([SOLVER_RECIPE.config.vocabSize - 1])
    // A few MB at most: the size budget for the shipped weights.
    expect(read('model.safetensors').length + read('onnx/model.onnx').length).toBeLessThan(4_000_000)
  })
})
