import { describe, expect, it } from 'vitest'
import { parseTokenizerJson } from './bpe-tokenizer.ts'

/**
 * A GPT-2-style tokenizer.json written by hand: a few byte-level pieces ("Ġ" is the space byte), merges
 * in both the string and the pair form, and one special token.
 */
function gpt2Fixture(): Record<string, unknown> {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [
      {
        id: 100,
        content: '<|endoftext|>',
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: true,
        special: true,
      },
      {
        id: 101,
        content: '<|end',
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: false,
      },
    ],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      vocab: {
        h: 0,
        e: 1,
        l: 2,
        o: 3,
        Ġ: 4,
        w: 5,
        r: 6,
        d: 7,
        he: 8,
        ll: 9,
        hell: 10,
        hello: 11,
        Ġw: 12,
        or: 13,
        Ġwor: 14,
        ld: 15,
        Ġworld: 16,
      },
      merges: ['h e', ['l', 'l'], 'he ll', ['hell', 'o'], 'Ġ w', ['o', 'r'], 'Ġw or', 'l d'],
    },
  }
}

function withModel(change: Record<string, unknown>): Record<string, unknown> {
  const json = gpt2Fixture()
  return { ...json, model: { ...(json.model as object), ...change } }
}

describe('parseTokenizerJson on a hand-written GPT-2-style file', () => {
  const tokenizer = parseTokenizerJson(gpt2Fixture())

  it('merges by rank within each pre-token', () => {
    // "hello": h e l l o → he (rank 0) → ll (1) → hell (2) → hello (3)
    // " world": Ġ w o r l d → Ġw (4) → or (5) → Ġwor (6) → ld (7); no merge joins Ġwor and ld
    expect(tokenizer.encode('hello world')).toEqual([11, 14, 15])
    // the leftmost occurrence of a pair merges first: lll → ll l
    expect(tokenizer.encode('lll')).toEqual([9, 2])
    expect(tokenizer.encode('hell')).toEqual([10])
  })

  it('drops characters outside the vocabulary when there is no unk token, as the Rust library does', () => {
    expect(tokenizer.encode('hex')).toEqual([8])
  })

  it('matches added tokens first, longest first, as whole tokens', () => {
    expect(tokenizer.encode('hello<|endoftext|>hello')).toEqual([11, 100, 11])
    expect(tokenizer.encode('<|end')).toEqual([101])
    expect(tokenizer.specialIds).toEqual(new Set([100]))
  })

  it('sizes the vocabulary by the largest id', () => {
    expect(tokenizer.vocabSize).toBe(102)
  })

  it('decodes ids to text, added tokens as their content', () => {
    expect(tokenizer.decode([11, 14, 15, 100])).toBe('hello world<|endoftext|>')
    expect(tokenizer.decode([])).toBe('')
  })

  it('throws a RangeError naming an unknown id', () => {
    expect(() => tokenizer.decode([11, 57])).toThrow(RangeError)
    expect(() => tokenizer.decode([11, 57])).toThrow(/unknown token id 57/)
    expect(() => tokenizer.decode([1.5])).toThrow(/unknown token id 1.5/)
  })

  it('looks up pieces and ids both ways', () => {
    expect(tokenizer.tokenId('Ġwor')).toBe(14)
    expect(tokenizer.tokenId('<|endoftext|>')).toBe(100)
    expect(tokenizer.tokenId('nope')).toBeUndefined()
    expect(tokenizer.idToToken(16)).toBe('Ġworld')
    expect(tokenizer.idToToken(100)).toBe('<|endoftext|>')
    expect(tokenizer.idToToken(50)).toBeUndefined()
  })

  it('takes a whole pre-token found in the vocabulary as one token when ignore_merges is set', () => {
    expect(parseTokenizerJson(withModel({ ignore_merges: true })).encode('hello world')).toEqual([11, 16])
  })

  it('maps characters outside the vocabulary to unk_token, fused when fuse_unk is set', () => {
    const vocab = { ...(gpt2Fixture().model as { vocab: object }).vocab, '<unk>': 17 }
    expect(parseTokenizerJson(withModel({ vocab, unk_token: '<unk>' })).encode('hxxe')).toEqual([
      0, 17, 17, 1,
    ])
    expect(
      parseTokenizerJson(withModel({ vocab, unk_token: '<unk>', fuse_unk: true })).encode('hxxe'),
    ).toEqual([0, 17, 1])
  })
})

describe('parseTokenizerJson refuses what it cannot run, naming the field', () => {
  const model = gpt2Fixture().model as Record<string, unknown>
  it.each([
    ['a non-object', 'tokenizer', /\(root\) must be an object/],
    [
      'another model type',
      withModel({ type: 'Unigram' }),
      /model\.type "Unigram" is not supported \(byte-level BPE only\)/,
    ],
    ['no model', { ...gpt2Fixture(), model: undefined }, /model must be an object/],
    ['a merge of three parts', withModel({ merges: ['h e l'] }), /model\.merges\[0\] must be "left right"/],
    [
      'a merge outside the vocabulary',
      withModel({ merges: ['h e', 'x y'] }),
      /model\.merges\[1\] "x y" uses "x", which is not in model\.vocab/,
    ],
    [
      'a merge whose result is not in the vocabulary',
      withModel({ merges: ['h o'] }),
      /uses "ho", which is not in model\.vocab/,
    ],
    [
      'a negative id',
      withModel({ vocab: { ...(model.vocab as object), h: -1 } }),
      /model\.vocab\["h"\] must be a non-negative integer id/,
    ],
    [
      'a repeated id',
      withModel({ vocab: { ...(model.vocab as object), x: 3 } }),
      /model\.vocab\["x"\] reuses id 3 of "o"/,
    ],
    ['byte fallback', withModel({ byte_fallback: true }), /model\.byte_fallback true is not supported/],
    ['dropout', withModel({ dropout: 0.1 }), /model\.dropout 0\.1 is not supported/],
    [
      'a subword prefix',
      withModel({ continuing_subword_prefix: '##' }),
      /model\.continuing_subword_prefix "##"/,
    ],
    [
      'an unknown unk token',
      withModel({ unk_token: '<unk>' }),
      /model\.unk_token "<unk>" is not in model\.vocab/,
    ],
    [
      'another normalizer',
      { ...gpt2Fixture(), normalizer: { type: 'NFKC' } },
      /normalizer\.type "NFKC" is not supported/,
    ],
    [
      'another pre-tokenizer',
      { ...gpt2Fixture(), pre_tokenizer: { type: 'Whitespace' } },
      /pre_tokenizer\.type "Whitespace"/,
    ],
    [
      'a Split after the ByteLevel',
      {
        ...gpt2Fixture(),
        pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'ByteLevel' }, { type: 'Split' }] },
      },
      /pre_tokenizer\.pretokenizers\[0\]\.type "ByteLevel" is not supported/,
    ],
    [
      'a Split that removes',
      {
        ...gpt2Fixture(),
        pre_tokenizer: {
          type: 'Sequence',
          pretokenizers: [
            { type: 'Split', pattern: { Regex: '\\s' }, behavior: 'Removed', invert: false },
            { type: 'ByteLevel' },
          ],
        },
      },
      /pre_tokenizer\.pretokenizers\[0\]\.behavior "Removed" is not supported/,
    ],
    [
      'an untranslatable Split regex',
      {
        ...gpt2Fixture(),
        pre_tokenizer: {
          type: 'Sequence',
          pretokenizers: [
            { type: 'Split', pattern: { Regex: '(?>a|b)' }, behavior: 'Isolated', invert: false },
            { type: 'ByteLevel' },
          ],
        },
      },
      /split pattern "\(\?>a\|b\)" cannot be translated/,
    ],
    [
      'another decoder',
      { ...gpt2Fixture(), decoder: { type: 'WordPiece' } },
      /decoder\.type "WordPiece" is not supported/,
    ],
    ['no decoder', { ...gpt2Fixture(), decoder: null }, /decoder must be an object, got null/],
    ['added tokens not a list', { ...gpt2Fixture(), added_tokens: {} }, /added_tokens must be an array/],
    [
      'an added token without content',
      { ...gpt2Fixture(), added_tokens: [{ id: 5 }] },
      /added_tokens\[0\]\.content must be a string/,
    ],
    [
      'an lstrip added token',
      { ...gpt2Fixture(), added_tokens: [{ id: 5, content: '<x>', lstrip: true }] },
      /added_tokens\[0\]\.lstrip true is not supported/,
    ],
  ])('%s', (_, json, message) => {
    expect(() => parseTokenizerJson(json)).toThrow(message)
  })
})
