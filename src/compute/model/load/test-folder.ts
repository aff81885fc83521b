// A complete tabswarm model folder in memory for the loader and solver tests: a TINY-shaped decoder
// whose vocabulary is a small trained byte-level BPE, its checkpoint, the ONNX made from that
// checkpoint, config.json and a tabswarm.json pinning every file.
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { writeCheckpoint } from '../checkpoint.ts'
import type { ModelConfig } from '../config.ts'
import { initParams } from '../params.ts'
import { TINY_CONFIG, paramsF64 } from '../test-model.ts'
import { trainBpe } from '../tokenizer/train-bpe.ts'
import { exportOnnx } from '../onnx/export-onnx.ts'
import { hfConfigJson } from './hf-config.ts'
import { MANIFEST_FORMAT } from './model-manifest.ts'

const SHARPEN = 40
export const TEST_EOS = '<|endoftext|>'
const TRAINING_TEXTS = ['add 12 and 30', 'the answer is 42', 'def solve(): return 7', 'héllo wörld €5']

export interface TestFolder {
  readonly config: ModelConfig
  readonly eosId: number
  readonly checkpoint: Uint8Array
  /** path → bytes, with tabswarm.json */
  readonly files: Map<string, Uint8Array>
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2))
const hex = (bytes: Uint8Array) => bytesToHex(sha256(bytes))

export function testModelFolder(
  options: { seed?: readonly [number, number]; onnxAtRoot?: boolean } = {},
): TestFolder {
  const tokenizer = trainBpe(TRAINING_TEXTS, { vocabSize: 270, specialTokens: [TEST_EOS] })
  const eosId = tokenizer.added_tokens.find((t) => t.content === TEST_EOS)!.id
  const config: ModelConfig = { ...TINY_CONFIG, vocabSize: eosId + 1, maxSeqLen: 64 }
  const params = initParams(config, options.seed ?? [5, 6])
  // init weights ×40 (still exact i32 at 2^-24): logits then depend on the weights strongly enough that
  // two seeds decode differently; at init scale a tied-embedding model just echoes its last token
  for (const [name, t] of params)
    if (!name.includes('norm')) t.data.forEach((x, i) => (t.data[i] = x * SHARPEN))
  const checkpoint = writeCheckpoint(config, params)
  const onnxPath = options.onnxAtRoot ? 'model.onnx' : 'onnx/model.onnx'
  const files = new Map<string, Uint8Array>([
    ['config.json', json(hfConfigJson(config, [eosId]))],
    ['tokenizer.json', json(tokenizer)],
    [onnxPath, exportOnnx(config, paramsF64(params))],
    ['model.safetensors', checkpoint],
  ])
  const manifest = {
    format: MANIFEST_FORMAT,
    name: 'tabswarm-test',
    promptTemplate: '{prompt}\n',
    files: Object.fromEntries([...files].map(([path, bytes]) => [path, hex(bytes)])),
    weightsHash: hex(checkpoint),
    trainable: true,
  }
  files.set('tabswarm.json', json(manifest))
  return { config, eosId, checkpoint, files }
}

/** The folder as picked File objects under a top folder, as `<input webkitdirectory>` gives them. */
export function asPickedFiles(files: ReadonlyMap<string, Uint8Array>, top: string): File[] {
  return [...files].map(([path, bytes]) => {
    const file = new File([bytes as Uint8Array<ArrayBuffer>], path.split('/').pop()!)
    // read-only on real picked files; tests set it the way the browser would
    Object.defineProperty(file, 'webkitRelativePath', { value: `${top}/${path}` })
    return file
  })
}
