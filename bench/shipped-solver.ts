// The shipped tabswarm-tiny as the solver runs it in Node: onnxruntime-web (wasm, one thread), the
// model folder's tokenizer and prompt template. Shared by the benches that sample real completions.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as ort from 'onnxruntime-web'
import { readCheckpoint } from '../src/compute/model/checkpoint.ts'
import { headDim } from '../src/compute/model/config.ts'
import { parseManifest } from '../src/compute/model/load/model-manifest.ts'
import { parseTokenizerJson } from '../src/compute/model/tokenizer/bpe-tokenizer.ts'
import { ortDecoder } from '../src/peer/solver/ort-decoder.ts'
import { createSession } from '../src/peer/solver/ort-runtime.ts'

export const SHIPPED_FOLDER = new URL('../public/models/tabswarm-tiny/', import.meta.url)

/** A file of the shipped model folder. */
export const readShipped = (path: string): Buffer => readFileSync(new URL(path, SHIPPED_FOLDER))

/**
 * A model folder's checkpoint, tokenizer, manifest and an onnxruntime-web decoder over it: the shipped
 * one unless `folder` (a directory path) names another of the same layout.
 */
export async function loadShippedSolver(folder?: string) {
  const read = folder === undefined ? readShipped : (path: string) => readFileSync(join(folder, path))
  const { config, params } = readCheckpoint(read('model.safetensors'))
  const tokenizer = parseTokenizerJson(JSON.parse(read('tokenizer.json').toString('utf8')))
  const manifest = parseManifest(read('tabswarm.json'))
  const eos = tokenizer.tokenId('<|endoftext|>')!
  ort.env.wasm.numThreads = 1
  const decoder = ortDecoder(ort, await createSession(ort, 'wasm', read('onnx/model.onnx')), {
    vocabSize: config.vocabSize,
    maxContext: config.maxSeqLen,
    kvHeads: config.kvHeads,
    headDim: headDim(config),
  })
  /** the completion's text without the end-of-sequence token */
  const decode = (ids: readonly number[]) => tokenizer.decode(ids.filter((id) => id !== eos))
  return { config, params, tokenizer, manifest, eos, decoder, decode }
}
