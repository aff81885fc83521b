// The files of public/models/tabswarm-tiny/ from a finished run: what ships is the weights rounded to
// the checkpoint grid, and the ONNX decoder is exported from those same rounded weights.
import { writeCheckpoint, checkpointHash } from '../checkpoint.ts'
import { flatFromParams, roundToParams } from '../f64/flat-params.ts'
import { hfConfigJson } from '../load/hf-config.ts'
import { MANIFEST_FORMAT, type ModelManifest } from '../load/model-manifest.ts'
import { exportOnnx } from '../onnx/export-onnx.ts'
import { END_OF_TEXT, PROMPT_TEMPLATE } from './sft-data.ts'
import type { ChainStep, SolverRecipe, TrainingRun } from './solver-training.ts'
import { float64Hash, sha256Hex } from './training-chain.ts'

export const SOLVER_NAME = 'tabswarm-tiny'
export const TRAINING_CHAIN_FORMAT = 'tabswarm-training-chain-v1'

export interface TrainingChainFile {
  readonly format: typeof TRAINING_CHAIN_FORMAT
  readonly recipe: SolverRecipe
  readonly tokenizerHash: string
  /** h0: SHA-256 of the canonical JSON of {config, hyperparameters, initSeed, tokenizerHash}. */
  readonly genesis: string
  readonly steps: readonly { readonly step: number; readonly loss: number; readonly hash: string }[]
  /** SHA-256 of the float64 weights after the last step (little-endian, layout order). */
  readonly finalFloat64Hash: string
  /** SHA-256 of model.safetensors: the final weights rounded to i32·2^-24. */
  readonly weightsHash: string
}

const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`)

/**
 * The chain file with one step per line, steps last: a long run's chain stays about 115 bytes a step
 * (indented, a step takes 150) and the header reads first.
 */
function chainJson(file: TrainingChainFile): Uint8Array {
  const { steps, ...header } = file
  const opening = JSON.stringify(header, null, 2).slice(0, -2)
  const lines = steps.map((step) => `    ${JSON.stringify(step)}`).join(',\n')
  return new TextEncoder().encode(`${opening},\n  "steps": [\n${lines}\n  ]\n}\n`)
}

/** Folder path → bytes, tabswarm.json last (it pins the others); `name` is the model's (and the manifest's). */
export function solverFolderFiles(
  run: TrainingRun,
  chain: readonly ChainStep[],
  name: string = SOLVER_NAME,
): Map<string, Uint8Array> {
  const { config } = run.recipe
  const eos = run.tokenizer.tokenId(END_OF_TEXT)
  if (eos === undefined) throw new RangeError(`the tokenizer has no ${END_OF_TEXT} token`)
  const rounded = roundToParams(run.model)
  const checkpoint = writeCheckpoint(config, rounded)
  const weightsHash = checkpointHash(checkpoint)
  const tokenizer = new TextEncoder().encode(run.tokenizerText)
  const chainFile: TrainingChainFile = {
    format: TRAINING_CHAIN_FORMAT,
    recipe: run.recipe,
    tokenizerHash: sha256Hex(tokenizer),
    genesis: run.genesis,
    steps: chain.map(({ step, loss, hash }) => ({ step, loss, hash })),
    finalFloat64Hash: float64Hash(run.model.data),
    weightsHash,
  }
  const files = new Map<string, Uint8Array>([
    ['config.json', json(hfConfigJson(config, [eos]))],
    ['tokenizer.json', tokenizer],
    ['model.safetensors', checkpoint],
    ['training-chain.json', chainJson(chainFile)],
    ['onnx/model.onnx', exportOnnx(config, flatFromParams(config, rounded).views, { name })],
  ])
  const manifest: ModelManifest = {
    format: MANIFEST_FORMAT,
    name,
    promptTemplate: PROMPT_TEMPLATE,
    files: Object.fromEntries([...files].map(([path, bytes]) => [path, sha256Hex(bytes)])),
    weightsHash,
    trainable: true,
  }
  files.set('tabswarm.json', json(manifest))
  return files
}
