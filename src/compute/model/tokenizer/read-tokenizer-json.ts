// Checks that a parsed tokenizer.json is one tabswarm can run (the subset in tokenizer-json.ts) and
// returns it typed. Every refusal is a TypeError (wrong shape) or RangeError (bad value) whose message
// names the field, e.g. `tokenizer.json: model.type "Unigram" is not supported (byte-level BPE only)`.
import type {
  AddedTokenJson,
  BpeModelJson,
  ByteLevelDecoderJson,
  ByteLevelPreTokenizerJson,
  NfcNormalizerJson,
  PreTokenizerJson,
  SplitPreTokenizerJson,
  TokenizerJson,
} from './tokenizer-json.ts'

type JsonObject = Record<string, unknown>

function fail(field: string, problem: string): never {
  throw new TypeError(`tokenizer.json: ${field} ${problem}`)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  return typeof value === 'object' ? 'an object' : String(value)
}

function object(value: unknown, field: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(field, `must be an object, got ${describe(value)}`)
  return value as JsonObject
}

function string(value: unknown, field: string): string {
  if (typeof value !== 'string') fail(field, `must be a string, got ${describe(value)}`)
  return value
}

function boolean(value: unknown, field: string, absent?: boolean): boolean {
  if (value === undefined && absent !== undefined) return absent
  if (typeof value !== 'boolean') fail(field, `must be true or false, got ${describe(value)}`)
  return value
}

function tokenIdValue(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`tokenizer.json: ${field} must be a non-negative integer id, got ${describe(value)}`)
  return value
}

function unsupported(field: string, value: unknown, supported: string): never {
  fail(field, `${describe(value)} is not supported (${supported})`)
}

/** A field that tabswarm only runs at one neutral value (a feature it does not implement). */
function requireNeutral(value: unknown, field: string, neutral: readonly unknown[]): void {
  if (!neutral.includes(value))
    unsupported(
      field,
      value,
      `only ${neutral.map((v) => (v === undefined ? 'absent' : JSON.stringify(v))).join(' or ')}`,
    )
}

function readAddedToken(value: unknown, index: number): AddedTokenJson {
  const field = `added_tokens[${index}]`
  const token = object(value, field)
  const read: AddedTokenJson = {
    id: tokenIdValue(token.id, `${field}.id`),
    content: string(token.content, `${field}.content`),
    single_word: boolean(token.single_word, `${field}.single_word`, false),
    lstrip: boolean(token.lstrip, `${field}.lstrip`, false),
    rstrip: boolean(token.rstrip, `${field}.rstrip`, false),
    normalized: boolean(token.normalized, `${field}.normalized`, false),
    special: boolean(token.special, `${field}.special`, false),
  }
  if (read.content === '') throw new RangeError(`tokenizer.json: ${field}.content must not be empty`)
  for (const option of ['single_word', 'lstrip', 'rstrip'] as const)
    if (read[option]) unsupported(`${field}.${option}`, true, 'only false')
  return read
}

function readNormalizer(value: unknown): NfcNormalizerJson | null {
  if (value === null || value === undefined) return null
  const type = object(value, 'normalizer').type
  if (type !== 'NFC') unsupported('normalizer.type', type, 'null or NFC only')
  return { type }
}

function readSplit(value: JsonObject, field: string): SplitPreTokenizerJson {
  const pattern = object(value.pattern, `${field}.pattern`)
  const read =
    'Regex' in pattern
      ? { Regex: string(pattern.Regex, `${field}.pattern.Regex`) }
      : 'String' in pattern
        ? { String: string(pattern.String, `${field}.pattern.String`) }
        : fail(`${field}.pattern`, 'must have a Regex or String field')
  if ('String' in read && read.String === '')
    throw new RangeError(`tokenizer.json: ${field}.pattern.String must not be empty`)
  if (value.behavior !== 'Isolated') unsupported(`${field}.behavior`, value.behavior, 'Isolated only')
  if (value.invert !== false && value.invert !== undefined)
    unsupported(`${field}.invert`, value.invert, 'false only')
  return { type: 'Split', pattern: read, behavior: 'Isolated', invert: false }
}

function readByteLevel(value: JsonObject, field: string): ByteLevelPreTokenizerJson {
  const read: ByteLevelPreTokenizerJson = {
    type: 'ByteLevel',
    add_prefix_space: boolean(value.add_prefix_space, `${field}.add_prefix_space`, false),
    use_regex: boolean(value.use_regex, `${field}.use_regex`, true),
  }
  if (value.trim_offsets !== undefined)
    read.trim_offsets = boolean(value.trim_offsets, `${field}.trim_offsets`)
  return read
}

const PRE_TOKENIZERS = 'ByteLevel, or a Sequence of Split steps ending in ByteLevel'

function readPreTokenizer(value: unknown): PreTokenizerJson {
  const preTokenizer = object(value, 'pre_tokenizer')
  if (preTokenizer.type === 'ByteLevel') return readByteLevel(preTokenizer, 'pre_tokenizer')
  if (preTokenizer.type !== 'Sequence') unsupported('pre_tokenizer.type', preTokenizer.type, PRE_TOKENIZERS)
  const steps = preTokenizer.pretokenizers
  if (!Array.isArray(steps) || steps.length === 0)
    fail('pre_tokenizer.pretokenizers', 'must be a non-empty array')
  const pretokenizers = steps.map((step: unknown, index) => {
    const field = `pre_tokenizer.pretokenizers[${index}]`
    const stepObject = object(step, field)
    const last = index === steps.length - 1
    if (last && stepObject.type === 'ByteLevel') return readByteLevel(stepObject, field)
    if (!last && stepObject.type === 'Split') return readSplit(stepObject, field)
    return unsupported(`${field}.type`, stepObject.type, PRE_TOKENIZERS)
  })
  return { type: 'Sequence', pretokenizers }
}

function readDecoder(value: unknown): ByteLevelDecoderJson {
  const type = object(value, 'decoder').type
  if (type !== 'ByteLevel') unsupported('decoder.type', type, 'ByteLevel only')
  return { type }
}

function readVocab(value: unknown): Record<string, number> {
  const vocab = object(value, 'model.vocab')
  const ids = new Set<number>()
  // field names are built only on failure: a real vocabulary has 150,000 entries
  for (const [piece, id] of Object.entries(vocab)) {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)
      tokenIdValue(id, `model.vocab[${JSON.stringify(piece)}]`)
    else if (ids.has(id)) {
      const other = Object.keys(vocab).find((key) => vocab[key] === id)
      throw new RangeError(
        `tokenizer.json: model.vocab[${JSON.stringify(piece)}] reuses id ${id} of ${JSON.stringify(other)}`,
      )
    }
    ids.add(id as number)
  }
  return vocab as Record<string, number>
}

function readMerges(value: unknown): string[] | [string, string][] {
  if (!Array.isArray(value)) fail('model.merges', `must be an array, got ${describe(value)}`)
  for (const [index, merge] of (value as unknown[]).entries()) {
    const isString = typeof merge === 'string' && merge.split(' ').length === 2
    const isPair =
      Array.isArray(merge) && merge.length === 2 && merge.every((part) => typeof part === 'string')
    if (!isString && !isPair)
      fail(`model.merges[${index}]`, `must be "left right" or ["left", "right"], got ${describe(merge)}`)
  }
  return value as string[] | [string, string][]
}

function readModel(value: unknown): BpeModelJson {
  const model = object(value, 'model')
  if (model.type !== 'BPE') unsupported('model.type', model.type, 'byte-level BPE only')
  requireNeutral(model.dropout, 'model.dropout', [null, undefined, 0])
  requireNeutral(model.continuing_subword_prefix, 'model.continuing_subword_prefix', [null, undefined, ''])
  requireNeutral(model.end_of_word_suffix, 'model.end_of_word_suffix', [null, undefined, ''])
  requireNeutral(model.byte_fallback, 'model.byte_fallback', [false, undefined])
  const unk =
    model.unk_token === undefined || model.unk_token === null
      ? null
      : string(model.unk_token, 'model.unk_token')
  return {
    type: 'BPE',
    dropout: null,
    unk_token: unk,
    continuing_subword_prefix: null,
    end_of_word_suffix: null,
    fuse_unk: boolean(model.fuse_unk, 'model.fuse_unk', false),
    byte_fallback: false,
    ignore_merges: boolean(model.ignore_merges, 'model.ignore_merges', false),
    vocab: readVocab(model.vocab),
    merges: readMerges(model.merges),
  }
}

/** The typed tokenizer.json, or a TypeError / RangeError naming the first field tabswarm cannot run. */
export function readTokenizerJson(json: unknown): TokenizerJson {
  const root = object(json, '(root)')
  const addedTokens = root.added_tokens ?? []
  if (!Array.isArray(addedTokens)) fail('added_tokens', `must be an array, got ${describe(addedTokens)}`)
  return {
    version: root.version === undefined ? '1.0' : string(root.version, 'version'),
    truncation: null,
    padding: null,
    added_tokens: addedTokens.map(readAddedToken),
    normalizer: readNormalizer(root.normalizer),
    pre_tokenizer: readPreTokenizer(root.pre_tokenizer),
    post_processor: root.post_processor ?? null,
    decoder: readDecoder(root.decoder),
    model: readModel(root.model),
  }
}
