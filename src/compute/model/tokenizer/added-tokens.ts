// Added tokens (<|im_start|>, <|endoftext|>, …) are found in the raw text before anything else and
// become one id each; only the text between them is normalized, pre-tokenized and merged.
import { escapeRegExp } from './split-pattern.ts'
import type { AddedTokenJson } from './tokenizer-json.ts'

/** A stretch of text to run through BPE, or an added token's id. */
export type Segment = { readonly text: string } | { readonly id: number }

export type SplitAddedTokens = (text: string) => Segment[]

export function createAddedTokenSplitter(tokens: readonly AddedTokenJson[]): SplitAddedTokens {
  if (tokens.length === 0) return (text) => (text === '' ? [] : [{ text }])
  const idOf = new Map(tokens.map((token) => [token.content, token.id]))
  // longest first, so that of two tokens starting at the same place the longer wins
  const alternatives = [...idOf.keys()]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .map(escapeRegExp)
  const regex = new RegExp(alternatives.join('|'), 'gu')
  return (text) => {
    const segments: Segment[] = []
    let last = 0
    for (const match of text.matchAll(regex)) {
      if (match.index > last) segments.push({ text: text.slice(last, match.index) })
      segments.push({ id: idOf.get(match[0]) as number })
      last = match.index + match[0].length
    }
    if (last < text.length) segments.push({ text: text.slice(last) })
    return segments
  }
}
