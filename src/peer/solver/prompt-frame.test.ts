import { describe, expect, it } from 'vitest'
import type { Tokenizer } from '../../compute/model/tokenizer/tokenizer.ts'
import type { ModelManifest } from '../../compute/model/load/model-manifest.ts'
import { framePrompt, promptTemplate, QWEN_CHAT_TEMPLATE } from './prompt-frame.ts'

const tokenizerWith = (pieces: string[]) =>
  ({ tokenId: (p: string) => (pieces.includes(p) ? 1 : undefined) }) as Tokenizer

describe('prompt framing', () => {
  it("uses the manifest's template, else the Qwen chat framing when its tokens exist, else the bare prompt", () => {
    const manifest = { promptTemplate: 'Q: {prompt}\nA:' } as ModelManifest
    expect(promptTemplate(manifest, tokenizerWith([]))).toBe('Q: {prompt}\nA:')
    expect(promptTemplate(undefined, tokenizerWith(['<|im_start|>', '<|im_end|>']))).toBe(QWEN_CHAT_TEMPLATE)
    expect(promptTemplate(undefined, tokenizerWith(['<|im_start|>']))).toBe('{prompt}')
  })

  it('inserts the prompt literally', () => {
    expect(framePrompt('Q: {prompt}\nA:', 'cost is $& 5')).toBe('Q: cost is $& 5\nA:')
  })
})
