// A Hugging Face-style model folder for the Solve e2e, made with the project's own tools: a byte-level
// BPE tokenizer (trainBpe) with the Qwen chat tokens, a Qwen2 config.json, and onnx/model.onnx exported
// from random weights (exportOnnx) — no tabswarm.json, so the tab treats it as a foreign, inference-only
// model and hashes it on load. Small enough to make in well under a second.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ModelConfig } from '../src/compute/model/config.ts'
import { hfConfigJson } from '../src/compute/model/load/hf-config.ts'
import { exportOnnx } from '../src/compute/model/onnx/export-onnx.ts'
import { initParams } from '../src/compute/model/params.ts'
import { paramsF64 } from '../src/compute/model/test-model.ts'
import { trainBpe } from '../src/compute/model/tokenizer/train-bpe.ts'
import { generateReasoningTask } from '../src/core/tasks/generate-reasoning-task.ts'

export const FIXTURE_EOS = '<|endoftext|>'
const SPECIAL_TOKENS = [FIXTURE_EOS, '<|im_start|>', '<|im_end|>']
/** 256 byte symbols + merges + the special tokens */
const VOCAB_SIZE = 384

/** Tokenizer training text: task prompts, so prompts tokenize into few tokens and fit the context. */
function trainingTexts(): string[] {
  return Array.from({ length: 40 }, (_, seed) => generateReasoningTask('arithmetic', 1, seed).prompt)
}

/** Writes the folder at `dir` (created); without tokenizer.json when `withTokenizer` is false. */
export function writeHfModelFolder(dir: string, { withTokenizer = true } = {}): void {
  const tokenizer = trainBpe(trainingTexts(), { vocabSize: VOCAB_SIZE, specialTokens: SPECIAL_TOKENS })
  const vocabSize = Object.keys(tokenizer.model.vocab).length + tokenizer.added_tokens.length
  const config: ModelConfig = {
    vocabSize,
    dim: 32,
    layers: 2,
    heads: 4,
    kvHeads: 2,
    ffnDim: 64,
    ropeTheta: 10000,
    maxSeqLen: 256,
    tiedEmbeddings: true,
    normEps: 1e-6,
  }
  const eos = tokenizer.added_tokens.find((t) => t.content === FIXTURE_EOS)!.id
  const params = paramsF64(initParams(config, [0x51, 0x7e]))
  mkdirSync(join(dir, 'onnx'), { recursive: true })
  writeFileSync(join(dir, 'config.json'), JSON.stringify(hfConfigJson(config, [eos]), null, 2))
  if (withTokenizer) writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizer))
  writeFileSync(join(dir, 'onnx', 'model.onnx'), exportOnnx(config, params, { name: 'e2e-random' }))
}
