// What the solver, the trainer and the prompt code need from a tokenizer: text ↔ token ids.

export interface Tokenizer {
  /** Max id + 1 over the vocabulary and the added tokens. */
  readonly vocabSize: number
  /** Added (special) tokens written literally in the text are matched first, as whole tokens. */
  encode(text: string): number[]
  /** Invalid UTF-8 byte sequences decode to U+FFFD, never throw; an unknown id throws a RangeError naming it. */
  decode(ids: readonly number[]): string
  /** A vocabulary piece or an added token's content → its id. */
  tokenId(piece: string): number | undefined
  idToToken(id: number): string | undefined
  /** Ids of the added tokens marked `special: true`. */
  readonly specialIds: ReadonlySet<number>
}
