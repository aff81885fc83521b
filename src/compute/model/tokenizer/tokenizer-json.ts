// The subset of the Hugging Face `tokenizers` file format (tokenizer.json) that tabswarm reads and
// writes: byte-level BPE as GPT-2 and Qwen2 / Qwen2.5-Coder ship it. read-tokenizer-json.ts checks a
// parsed file against these types; train-bpe.ts writes them.

export interface AddedTokenJson {
  id: number
  content: string
  single_word: boolean
  lstrip: boolean
  rstrip: boolean
  normalized: boolean
  special: boolean
}

export interface NfcNormalizerJson {
  type: 'NFC'
}

/** Split by a regex (Oniguruma syntax, as the Rust library compiles it) or a literal string. */
export interface SplitPreTokenizerJson {
  type: 'Split'
  pattern: { Regex: string } | { String: string }
  /** Only `Isolated` is supported: every match and every gap between matches is its own piece. */
  behavior: 'Isolated'
  invert: false
}

export interface ByteLevelPreTokenizerJson {
  type: 'ByteLevel'
  /** Prepend a space to text that does not start with one, so a first word encodes like any other. */
  add_prefix_space: boolean
  trim_offsets?: boolean
  /** Split with the GPT-2 regex first; the Rust library defaults to true when the field is absent. */
  use_regex?: boolean
}

export interface SequencePreTokenizerJson {
  type: 'Sequence'
  pretokenizers: (SplitPreTokenizerJson | ByteLevelPreTokenizerJson)[]
}

export type PreTokenizerJson = ByteLevelPreTokenizerJson | SequencePreTokenizerJson

export interface ByteLevelDecoderJson {
  type: 'ByteLevel'
  add_prefix_space?: boolean
  trim_offsets?: boolean
  use_regex?: boolean
}

export interface BpeModelJson {
  type: 'BPE'
  dropout: null
  unk_token: string | null
  continuing_subword_prefix: string | null
  end_of_word_suffix: string | null
  fuse_unk: boolean
  byte_fallback: false
  ignore_merges: boolean
  vocab: Record<string, number>
  /** Older files write "a b", newer ones ["a", "b"]; both are read. */
  merges: string[] | [string, string][]
}

export interface TokenizerJson {
  version: string
  truncation: null
  padding: null
  added_tokens: AddedTokenJson[]
  normalizer: NfcNormalizerJson | null
  pre_tokenizer: PreTokenizerJson
  /** Read but ignored: tabswarm frames prompts itself (docs/model-folder.md). */
  post_processor: unknown
  decoder: ByteLevelDecoderJson
  model: BpeModelJson
}

/** The GPT-2 pre-tokenizer regex, which a ByteLevel pre-tokenizer with `use_regex: true` applies. */
export const GPT2_SPLIT_PATTERN =
  "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+"

/** Qwen2's Split regex: like GPT-2's but case-insensitive contractions and one token per digit. */
export const QWEN2_SPLIT_PATTERN =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"
