// How a task prompt is framed for the loaded model (docs/model-folder.md): the manifest's template for
// tabswarm models; otherwise the Qwen chat framing when the tokenizer has its tokens; else the bare prompt.
import type { ModelManifest } from '../../compute/model/load/model-manifest.ts'
import type { Tokenizer } from '../../compute/model/tokenizer/tokenizer.ts'

export const QWEN_CHAT_TEMPLATE = '<|im_start|>user\n{prompt}<|im_end|>\n<|im_start|>assistant\n'

export function promptTemplate(manifest: ModelManifest | undefined, tokenizer: Tokenizer): string {
  if (manifest) return manifest.promptTemplate
  const chat =
    tokenizer.tokenId('<|im_start|>') !== undefined && tokenizer.tokenId('<|im_end|>') !== undefined
  return chat ? QWEN_CHAT_TEMPLATE : '{prompt}'
}

export function framePrompt(template: string, prompt: string): string {
  // a replacer function, so `$&` and friends in the prompt stay literal
  return template.replace('{prompt}', () => prompt)
}
