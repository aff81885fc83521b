// A Tokenizer from a Hugging Face tokenizer.json (byte-level BPE: GPT-2, Qwen2, tabswarm's own).
// encode: added tokens → normalize (NFC) → pre-tokenize → byte-level map → BPE per word.
// decode: ids → tokens → bytes (ByteLevel decoder) → UTF-8, invalid sequences as U+FFFD.
import { createAddedTokenSplitter } from './added-tokens.ts'
import { appendTokenBytes, decodeUtf8Lossy, toByteLevel } from './byte-level.ts'
import { BpeModel } from './bpe-model.ts'
import { createPreTokenizer } from './pre-tokenizer.ts'
import { readTokenizerJson } from './read-tokenizer-json.ts'
import type { Tokenizer } from './tokenizer.ts'

/**
 * Checks and compiles a parsed tokenizer.json. Throws a TypeError / RangeError whose message names the
 * unsupported or malformed field.
 */
export function parseTokenizerJson(json: unknown): Tokenizer {
  const file = readTokenizerJson(json)
  const model = new BpeModel(file.model)
  const preTokenize = createPreTokenizer(file.pre_tokenizer)
  const splitAddedTokens = createAddedTokenSplitter(file.added_tokens)
  const normalize = file.normalizer ? (text: string) => text.normalize('NFC') : (text: string) => text

  const idOfToken = new Map(model.vocab)
  const tokenOfId = new Map<number, string>()
  for (const [piece, id] of model.vocab) tokenOfId.set(id, piece)
  // an added token overrides a vocabulary piece with the same id or content, as in the Rust library
  for (const { id, content } of file.added_tokens) {
    idOfToken.set(content, id)
    tokenOfId.set(id, content)
  }
  const specialIds: ReadonlySet<number> = new Set(file.added_tokens.filter((t) => t.special).map((t) => t.id))
  // a loop, not Math.max(...ids): a 150,000-id spread overflows the call stack
  let vocabSize = 0
  for (const id of tokenOfId.keys()) vocabSize = Math.max(vocabSize, id + 1)

  function encode(text: string): number[] {
    const ids: number[] = []
    for (const segment of splitAddedTokens(text)) {
      if ('id' in segment) ids.push(segment.id)
      else
        for (const piece of preTokenize(normalize(segment.text)))
          ids.push(...model.encodeWord(toByteLevel(piece)))
    }
    return ids
  }

  function decode(ids: readonly number[]): string {
    const bytes: number[] = []
    for (const id of ids) {
      const token = tokenOfId.get(id)
      if (token === undefined)
        throw new RangeError(
          `decode: unknown token id ${String(id)} (not in this tokenizer's vocabulary or added tokens)`,
        )
      appendTokenBytes(token, bytes)
    }
    return decodeUtf8Lossy(bytes)
  }

  return {
    vocabSize,
    encode,
    decode,
    tokenId: (piece) => idOfToken.get(piece),
    idToToken: (id) => tokenOfId.get(id),
    specialIds,
  }
}
