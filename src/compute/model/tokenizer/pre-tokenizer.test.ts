import { describe, expect, it } from 'vitest'
import { createPreTokenizer } from './pre-tokenizer.ts'
import { compileSplitPattern } from './split-pattern.ts'
import { GPT2_SPLIT_PATTERN, QWEN2_SPLIT_PATTERN } from './tokenizer-json.ts'

const qwen2 = createPreTokenizer({
  type: 'Sequence',
  pretokenizers: [
    { type: 'Split', pattern: { Regex: QWEN2_SPLIT_PATTERN }, behavior: 'Isolated', invert: false },
    { type: 'ByteLevel', add_prefix_space: false, use_regex: false },
  ],
})
const gpt2 = createPreTokenizer({ type: 'ByteLevel', add_prefix_space: false, use_regex: true })

describe('Qwen2 pre-tokenizer', () => {
  it.each([
    ["I'm here, don't GO'S", ['I', "'m", ' here', ',', ' don', "'t", ' GO', "'S"]],
    ["WE'RE we'Ve", ['WE', "'RE", ' we', "'Ve"]],
    ['x=12345 42', ['x', '=', '1', '2', '3', '4', '5', ' ', '4', '2']],
    ['Hello world', ['Hello', ' world']],
    ['  hi', [' ', ' hi']],
    ['a\n\nb', ['a', '\n\n', 'b']],
    // one non-letter, non-newline character (here a tab) may lead a word
    ['hi.\n\tx', ['hi', '.\n', '\tx']],
    ['(3+4)*2', ['(', '3', '+', '4', ')*', '2']],
    ['naïve 日本語 🙂!', ['naïve', ' 日本語', ' 🙂!']],
    // \s is Unicode White_Space, as in Oniguruma: U+0085 is whitespace, U+FEFF is not
    ['a\u0085\u0085b', ['a', '\u0085', '\u0085b']],
    ['a \uFEFFb', ['a', ' \uFEFF', 'b']],
  ])('splits %j like the original', (text, pieces) => {
    expect(qwen2(text)).toEqual(pieces)
  })
})

describe('GPT-2 pre-tokenizer (ByteLevel use_regex)', () => {
  it('keeps numbers whole and contractions case-sensitive', () => {
    expect(gpt2("I'M 2024 don't")).toEqual(['I', "'", 'M', ' 2024', ' don', "'t"])
  })

  it('adds a prefix space when asked', () => {
    const prefixed = createPreTokenizer({ type: 'ByteLevel', add_prefix_space: true, use_regex: true })
    expect(prefixed('hi there')).toEqual([' hi', ' there'])
  })

  it('uses the regex the GPT-2 tokenizer.json implies', () => {
    expect('a  b'.match(compileSplitPattern(GPT2_SPLIT_PATTERN))).toEqual(['a', ' ', ' b'])
  })
})

describe('Split with a literal pattern', () => {
  it('isolates each occurrence of the string, regex characters included', () => {
    const split = createPreTokenizer({
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { String: '+' }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: false, use_regex: false },
      ],
    })
    expect(split('1+22++3')).toEqual(['1', '+', '22', '+', '+', '3'])
  })
})

describe('compileSplitPattern', () => {
  it('refuses a case-insensitive group it cannot rewrite, naming it', () => {
    expect(() => compileSplitPattern('(?i:[a-z]+)')).toThrow(/\(\?i:\[a-z\]\+\).*cannot be translated/)
  })

  it('refuses Oniguruma syntax JS lacks, naming the pattern', () => {
    expect(() => compileSplitPattern('\\p{L}++')).toThrow(TypeError)
    expect(() => compileSplitPattern('\\p{L}++')).toThrow(/split pattern "\\\\p\{L\}\+\+"/)
  })
})
