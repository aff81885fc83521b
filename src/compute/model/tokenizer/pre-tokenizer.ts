// Pre-tokenization: text → the pieces BPE merges within (never across). Built from a tokenizer.json
// pre_tokenizer that read-tokenizer-json.ts has checked: a ByteLevel alone (GPT-2) or a Sequence of
// Splits ending in a ByteLevel (Qwen2). Each step applies to every piece the previous steps made, as
// in the Rust library. The pieces are raw text; the byte-level mapping happens in bpe-tokenizer.ts.
import { compileSplitPattern, escapeRegExp, splitIsolated } from './split-pattern.ts'
import type { ByteLevelPreTokenizerJson, PreTokenizerJson, SplitPreTokenizerJson } from './tokenizer-json.ts'
import { GPT2_SPLIT_PATTERN } from './tokenizer-json.ts'

export type PreTokenize = (text: string) => string[]

type Step = (piece: string) => string[]

function splitStep(split: SplitPreTokenizerJson): Step {
  const regex =
    'Regex' in split.pattern
      ? compileSplitPattern(split.pattern.Regex)
      : new RegExp(escapeRegExp(split.pattern.String), 'gu')
  return (piece) => splitIsolated(piece, regex)
}

function byteLevelStep(byteLevel: ByteLevelPreTokenizerJson): Step {
  const regex = byteLevel.use_regex === false ? undefined : compileSplitPattern(GPT2_SPLIT_PATTERN)
  return (piece) => {
    const prefixed = byteLevel.add_prefix_space && !piece.startsWith(' ') ? ` ${piece}` : piece
    return regex ? splitIsolated(prefixed, regex) : [prefixed]
  }
}

export function createPreTokenizer(json: PreTokenizerJson): PreTokenize {
  const steps = (json.type === 'Sequence' ? json.pretokenizers : [json]).map((step) =>
    step.type === 'Split' ? splitStep(step) : byteLevelStep(step),
  )
  return (text) => {
    let pieces = [text]
    for (const step of steps) pieces = pieces.flatMap(step)
    return pieces
  }
}
