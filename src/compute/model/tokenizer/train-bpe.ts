// Trains tabswarm's own byte-level BPE vocabulary, deterministically, and writes it as a tokenizer.json
// that parseTokenizerJson (and the Hugging Face libraries) read.
//
// - Pre-tokenizer: Qwen2's (NFC, then its Split regex, then ByteLevel), so merges never cross word
//   boundaries and every digit stays its own token — numbers keep a regular form for arithmetic.
// - Base alphabet: ids 0–255 are the 256 byte symbols in byte order: id b is byte b (BYTE_TO_CHAR[b]),
//   so id 32 is "Ġ" (space) and id 48 is "0".
// - Merges: repeatedly the adjacent pair with the highest count over all words (weighted by how often
//   the word occurs); ties go to the smallest pair, comparing the left pieces and then the right ones
//   as JavaScript strings (UTF-16 code units) of their byte-level form. Each new piece gets the next id
//   from 256; training stops at vocabSize or when the texts have no adjacent pair left (a smaller vocabulary).
// - Special tokens follow the last merge, in the order given, as added tokens with special: true; they
//   are cut out of the training texts, so no merge spans them.
// The same texts and options give a byte-identical JSON.stringify of the result.
import { createAddedTokenSplitter } from './added-tokens.ts'
import { BinaryHeap } from './binary-heap.ts'
import { BYTE_TO_CHAR } from './byte-level.ts'
import { PAIR_KEY_BASE, pairKey, pairOfKey } from './pair-key.ts'
import { createPreTokenizer } from './pre-tokenizer.ts'
import type { AddedTokenJson, PreTokenizerJson, TokenizerJson } from './tokenizer-json.ts'
import { QWEN2_SPLIT_PATTERN } from './tokenizer-json.ts'

export interface TrainBpeOptions {
  /** Size of the result: 256 byte symbols + merges + special tokens. */
  readonly vocabSize: number
  readonly specialTokens: readonly string[]
}

const BYTE_SYMBOLS = 256

const QWEN2_PRE_TOKENIZER: PreTokenizerJson = {
  type: 'Sequence',
  pretokenizers: [
    { type: 'Split', pattern: { Regex: QWEN2_SPLIT_PATTERN }, behavior: 'Isolated', invert: false },
    { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
  ],
}

interface Word {
  symbols: number[]
  readonly count: number
}

interface Candidate {
  readonly key: number
  readonly count: number
  readonly left: string
  readonly right: string
}

function checkOptions({ vocabSize, specialTokens }: TrainBpeOptions): void {
  if (!Array.isArray(specialTokens))
    throw new TypeError('trainBpe: specialTokens must be an array of strings')
  const seen = new Set<string>()
  for (const [index, token] of specialTokens.entries()) {
    if (typeof token !== 'string' || token === '')
      throw new TypeError(`trainBpe: specialTokens[${index}] must be a non-empty string`)
    if (seen.has(token))
      throw new RangeError(`trainBpe: specialTokens[${index}] ${JSON.stringify(token)} is repeated`)
    seen.add(token)
  }
  const least = BYTE_SYMBOLS + specialTokens.length
  if (!Number.isInteger(vocabSize) || vocabSize < least || vocabSize >= PAIR_KEY_BASE)
    throw new RangeError(
      `trainBpe: vocabSize must be an integer from ${least} (256 bytes + ${specialTokens.length} special tokens) to ${PAIR_KEY_BASE - 1}, got ${String(vocabSize)}`,
    )
}

/** Each distinct pre-token of the texts as byte ids, with how often it occurs. */
function countWords(texts: Iterable<string>, specialTokens: readonly string[]): Word[] {
  const splitSpecials = createAddedTokenSplitter(
    specialTokens.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
  )
  const preTokenize = createPreTokenizer(QWEN2_PRE_TOKENIZER)
  const counts = new Map<string, number>()
  let index = 0
  for (const text of texts) {
    if (typeof text !== 'string')
      throw new TypeError(`trainBpe: texts[${index}] must be a string, got ${typeof text}`)
    for (const segment of splitSpecials(text))
      if ('text' in segment)
        for (const piece of preTokenize(segment.text.normalize('NFC')))
          counts.set(piece, (counts.get(piece) ?? 0) + 1)
    index++
  }
  const encoder = new TextEncoder()
  return [...counts].map(([piece, count]) => ({ symbols: [...encoder.encode(piece)], count }))
}

interface Learned {
  /** Every piece by id: the 256 byte symbols, then one per merge that made a new piece. */
  readonly pieces: readonly string[]
  /** [left, right] by rank. */
  readonly merges: [string, string][]
}

/** The merge loop, until there are `size` pieces or no adjacent pair is left. */
function learnMerges(words: Word[], size: number): Learned {
  const pieces = [...BYTE_TO_CHAR]
  const pieceIds = new Map(pieces.map((piece, id) => [piece, id]))
  const pairCounts = new Map<number, number>()
  const wordsWithPair = new Map<number, Set<number>>()
  const candidates = new BinaryHeap<Candidate>(
    (a, b) =>
      a.count > b.count ||
      (a.count === b.count && (a.left < b.left || (a.left === b.left && a.right < b.right))),
  )
  const touched = new Set<number>()

  const addPairs = (wordIndex: number, sign: 1 | -1): void => {
    const { symbols, count } = words[wordIndex] as Word
    for (let i = 0; i + 1 < symbols.length; i++) {
      const key = pairKey(symbols[i] as number, symbols[i + 1] as number)
      pairCounts.set(key, (pairCounts.get(key) ?? 0) + sign * count)
      touched.add(key)
      if (sign > 0) {
        let holders = wordsWithPair.get(key)
        if (!holders) wordsWithPair.set(key, (holders = new Set()))
        holders.add(wordIndex)
      }
    }
  }
  const offerTouched = (): void => {
    for (const key of touched) {
      const count = pairCounts.get(key) ?? 0
      const [left, right] = pairOfKey(key)
      if (count > 0)
        candidates.push({
          key,
          count,
          left: pieces[left] as string,
          right: pieces[right] as string,
        })
    }
    touched.clear()
  }

  words.forEach((_, wordIndex) => addPairs(wordIndex, 1))
  offerTouched()
  const merges: [string, string][] = []
  while (pieces.length < size) {
    const best = candidates.pop()
    if (!best) break
    // entries are never updated in place; one whose count has since changed is stale
    if (pairCounts.get(best.key) !== best.count) continue
    const [left, right] = pairOfKey(best.key)
    // two merges can spell the same piece ("ab"+"c", "a"+"bc"): the second reuses its id, as in the Rust trainer
    const piece = best.left + best.right
    let id = pieceIds.get(piece)
    if (id === undefined) {
      id = pieces.length
      pieces.push(piece)
      pieceIds.set(piece, id)
    }
    merges.push([best.left, best.right])
    for (const wordIndex of wordsWithPair.get(best.key) ?? []) {
      addPairs(wordIndex, -1)
      const word = words[wordIndex] as Word
      word.symbols = mergePair(word.symbols, left, right, id)
      addPairs(wordIndex, 1)
    }
    wordsWithPair.delete(best.key)
    offerTouched()
  }
  return { pieces, merges }
}

/** Leftmost non-overlapping occurrences of (left, right) replaced by id. */
function mergePair(symbols: readonly number[], left: number, right: number, id: number): number[] {
  const merged: number[] = []
  for (let i = 0; i < symbols.length; i++) {
    if (symbols[i] === left && symbols[i + 1] === right) {
      merged.push(id)
      i++
    } else merged.push(symbols[i] as number)
  }
  return merged
}

export function trainBpe(texts: Iterable<string>, options: TrainBpeOptions): TokenizerJson {
  checkOptions(options)
  const { vocabSize, specialTokens } = options
  const { pieces, merges } = learnMerges(countWords(texts, specialTokens), vocabSize - specialTokens.length)
  const vocab: Record<string, number> = {}
  pieces.forEach((piece, id) => (vocab[piece] = id))
  const firstSpecialId = pieces.length
  const addedTokens: AddedTokenJson[] = specialTokens.map((content, index) => ({
    id: firstSpecialId + index,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }))
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: addedTokens,
    normalizer: { type: 'NFC' },
    pre_tokenizer: QWEN2_PRE_TOKENIZER,
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges,
    },
  }
}
