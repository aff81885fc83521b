import { describe, expect, it } from 'vitest'
import { generateReasoningTask } from '../../../core/tasks/generate-reasoning-task.ts'
import { REASONING_FAMILIES } from '../../../core/tasks/reasoning-families.ts'
import { parseTokenizerJson } from './bpe-tokenizer.ts'
import { BYTE_TO_CHAR } from './byte-level.ts'
import { trainBpe } from './train-bpe.ts'

/** Task prompts of every reasoning family at difficulties 1 and 2. */
function taskPrompts(seedsPerCase: number): string[] {
  const prompts: string[] = []
  for (const family of REASONING_FAMILIES)
    for (const difficulty of [1, 2] as const)
      for (let seed = 0; seed < seedsPerCase; seed++)
        prompts.push(generateReasoningTask(family.name, difficulty, seed).prompt)
  return prompts
}

const SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>']
const prompts = taskPrompts(400)
/** Small enough that these prompts fill it (they run out of pairs near 500). */
const VOCAB_SIZE = 400
const trained = trainBpe(prompts, { vocabSize: VOCAB_SIZE, specialTokens: SPECIAL_TOKENS })
const tokenizer = parseTokenizerJson(JSON.parse(JSON.stringify(trained)))

describe('trainBpe', () => {
  it('fills the vocabulary: 256 bytes in byte order, merges, then the special tokens', () => {
    expect(tokenizer.vocabSize).toBe(VOCAB_SIZE)
    expect(BYTE_TO_CHAR.map((_, byte) => tokenizer.idToToken(byte))).toEqual(BYTE_TO_CHAR)
    expect(trained.model.merges).toHaveLength(VOCAB_SIZE - 256 - SPECIAL_TOKENS.length)
    expect(SPECIAL_TOKENS.map((token) => tokenizer.tokenId(token))).toEqual([397, 398, 399])
    expect(tokenizer.specialIds).toEqual(new Set([397, 398, 399]))
  })

  it.each([
    ['ASCII', 'Calculate 12 + 11. Give only the final answer.'],
    ['newlines and tabs', 'line one\nline two\r\n\n\tindented\t\ttabs  and   spaces \n'],
    ['unicode', 'naïve café, Ελληνικά, 日本語のテキスト, ∀x ∈ ℝ'],
    ['emoji', '🙂 👍🏽 👨‍👩‍👧 🇫🇷'],
    ['special tokens', '<|im_start|>user\nhi<|im_end|>\n<|endoftext|>'],
    ['a leading byte order mark', '\uFEFFhi'],
    ['an empty string', ''],
  ])('round-trips %s', (_, text) => {
    expect(tokenizer.decode(tokenizer.encode(text))).toBe(text)
  })

  it('normalizes to NFC, as its tokenizer.json says', () => {
    expect(tokenizer.decode(tokenizer.encode('cafe\u0301'))).toBe('caf\u00e9')
  })

  it('keeps special tokens whole in chat framing', () => {
    const ids = tokenizer.encode('<|im_start|>user\nhi<|im_end|>')
    expect(ids[0]).toBe(tokenizer.tokenId('<|im_start|>'))
    expect(ids.at(-1)).toBe(tokenizer.tokenId('<|im_end|>'))
    expect(ids.slice(1, -1)).toEqual(tokenizer.encode('user\nhi'))
  })

  it('decodes a cut multi-byte character to U+FFFD instead of throwing', () => {
    const ids = tokenizer.encode('🙂')
    expect(ids.length).toBeGreaterThan(1)
    expect(tokenizer.decode(ids.slice(0, 1))).toBe('\uFFFD')
  })

  it('keeps every digit its own token', () => {
    const piecesWithDigits = Object.keys(trained.model.vocab).filter((piece) => /\d/.test(piece))
    expect(piecesWithDigits.sort()).toEqual([...'0123456789'])
    expect(tokenizer.encode('12345')).toEqual([...'12345'].map((digit) => digit.charCodeAt(0)))
  })

  it('is deterministic: the same input gives the same JSON text', () => {
    const again = trainBpe(prompts, { vocabSize: VOCAB_SIZE, specialTokens: SPECIAL_TOKENS })
    expect(JSON.stringify(again)).toBe(JSON.stringify(trained))
  })

  it('merges the most frequent pair first, breaking ties by the smaller pair', () => {
    const merges = (texts: string[], vocabSize: number) =>
      trainBpe(texts, { vocabSize, specialTokens: [] }).model.merges
    // (c, d) occurs twice; the rest once
    expect(merges(['cd cd ab'], 257)).toEqual([['c', 'd']])
    // all pairs once: "a" < "c" < "Ġ" (U+0120)
    expect(merges(['ab cd'], 259)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['Ġ', 'cd'],
    ])
  })

  it('stops early when the texts run out of pairs', () => {
    const small = trainBpe(['aaaa'], { vocabSize: 300, specialTokens: ['<|endoftext|>'] })
    expect(small.model.merges).toEqual([
      ['a', 'a'],
      ['aa', 'aa'],
    ])
    expect(parseTokenizerJson(small).vocabSize).toBe(259)
    expect(small.added_tokens[0]?.id).toBe(258)
  })

  it('does not learn merges across special tokens in the texts', () => {
    const json = trainBpe(['x<|endoftext|>x<|endoftext|>'], {
      vocabSize: 300,
      specialTokens: ['<|endoftext|>'],
    })
    expect(json.model.merges).toEqual([])
  })

  it('compresses task prompts well below their byte count', () => {
    const started = performance.now()
    const small = parseTokenizerJson(trainBpe(prompts, { vocabSize: 512, specialTokens: ['<|endoftext|>'] }))
    const trainMs = performance.now() - started
    const encoder = new TextEncoder()
    const meanBytes = prompts.reduce((sum, text) => sum + encoder.encode(text).length, 0) / prompts.length
    const meanTokens = prompts.reduce((sum, text) => sum + small.encode(text).length, 0) / prompts.length
    console.log(
      `trainBpe on ${prompts.length} task prompts, vocab 512: ${trainMs.toFixed(0)} ms; ` +
        `mean ${meanTokens.toFixed(1)} tokens vs ${meanBytes.toFixed(1)} bytes per prompt`,
    )
    expect(meanTokens).toBeLessThan(0.4 * meanBytes)
  })

  it('refuses bad options and texts, naming them', () => {
    expect(() => trainBpe([], { vocabSize: 257, specialTokens: ['a', 'b'] })).toThrow(
      /vocabSize must be an integer from 258/,
    )
    expect(() => trainBpe([], { vocabSize: 300, specialTokens: ['a', 'a'] })).toThrow(
      /specialTokens\[1\] "a" is repeated/,
    )
    expect(() => trainBpe([], { vocabSize: 300, specialTokens: [''] })).toThrow(
      /specialTokens\[0\] must be a non-empty string/,
    )
    expect(() => trainBpe(['ok', 3 as unknown as string], { vocabSize: 300, specialTokens: [] })).toThrow(
      /texts\[1\] must be a string, got number/,
    )
  })
})
