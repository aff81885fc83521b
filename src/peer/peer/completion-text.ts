// What a completion's token ids say, the same on the peer that sampled them and on every receiver: the
// decoded text of all of them but a final end-of-sequence token (where sampling stopped). Special tokens
// decode as what they are, never dropped, so a completion's text shows every token a receiver trains on.
import type { Tokenizer } from '../../compute/model/tokenizer/tokenizer.ts'
import type { RolloutCompletion } from '../../core/protocol/rollouts.ts'

export interface CompletionVocabulary {
  tokenizer: Pick<Tokenizer, 'decode'>
  vocabSize: number
  /** the model's end-of-sequence ids: sampling stops at the first one, the last of the token ids */
  eosIds: readonly number[]
}

/** The text of sampled token ids: all but a final end-of-sequence token, special tokens as they read. */
export function completionText(ids: readonly number[], vocabulary: CompletionVocabulary): string {
  const last = ids.at(-1)
  const end = last !== undefined && vocabulary.eosIds.includes(last) ? ids.length - 1 : ids.length
  return vocabulary.tokenizer.decode(ids.slice(0, end))
}

/**
 * Whether a completion's token ids are exactly its text: ids of the vocabulary, an end-of-sequence
 * token at most as the last one (sampling stops there), and the rest decoding to the text. A sender
 * cannot train us on tokens its text does not show.
 */
export function tokensSpellText(completion: RolloutCompletion, vocabulary: CompletionVocabulary): boolean {
  const { tokenIds, text } = completion
  const last = tokenIds.length - 1
  const known = tokenIds.every(
    (id, i) => id < vocabulary.vocabSize && (i === last || !vocabulary.eosIds.includes(id)),
  )
  if (!known) return false
  try {
    return completionText(tokenIds, vocabulary) === text
  } catch {
    // an id below the vocabulary size that the tokenizer does not have
    return false
  }
}
