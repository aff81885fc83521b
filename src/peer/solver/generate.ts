// The generation loop over an abstract decoder step, so it runs the same over onnxruntime-web in the
// worker and over a float64 reference in Node tests. One prompt, G samples as one batch: the prompt is
// prefilled once as a batch of one and its cache repeated G times (equal lengths, so no padding; G
// times less prefill work and logits memory, which matters with a 150k vocabulary), then each step feeds
// one new token per row against the KV cache. A decoder that cannot repeat its cache prefills the prompt
// G times; one without a cache is fed the whole sequences every step.
import type { Completion, StopReason } from './solver-protocol.ts'
import { sampleToken, validateSampling, type TokenSampling } from './sampling.ts'

/** One forward pass: logits for every position of every row, and the cache after it. */
export interface DecoderStepInput<Cache> {
  /** row-major [batch, seqLen] */
  readonly ids: Int32Array
  readonly batch: number
  readonly seqLen: number
  /** positions already in `past` (0 on the prefill, and always 0 for a decoder without a cache) */
  readonly pastLength: number
  readonly past: Cache | undefined
}

export interface DecoderStepOutput<Cache> {
  /** row-major [batch, seqLen, vocab] */
  readonly logits: Float32Array
  readonly present: Cache | undefined
}

export interface Decoder<Cache> {
  readonly vocabSize: number
  /** the most positions (prompt + new tokens) the model takes */
  readonly maxContext: number
  /** false: the loop recomputes the whole sequence each step */
  readonly usesCache: boolean
  step(input: DecoderStepInput<Cache>): Promise<DecoderStepOutput<Cache>>
  /** A batch-1 cache repeated into `batch` rows. */
  expand?(cache: Cache, batch: number): Cache
  /** Frees a cache the loop no longer needs (GPU or wasm memory). */
  release?(cache: Cache): void
}

export interface GenerateRequest {
  readonly promptIds: readonly number[]
  readonly samples: number
  readonly sampling: TokenSampling & { readonly maxNewTokens: number }
  /** any of these ends a sample (the token is kept in its ids, not in its text) */
  readonly eosIds: readonly number[]
  readonly decode: (ids: readonly number[]) => string
  /** new text of one sample; never ends inside a UTF-8 character */
  readonly onDelta?: (sample: number, delta: string) => void
  readonly signal?: AbortSignal
  /** when the request arrived (defaults to the loop's start), for firstTokenMs */
  readonly startedAt?: number
  readonly now?: () => number
}

export interface GenerateOutcome {
  readonly completions: Completion[]
  /** sampled tokens of all samples (none after a sample stopped) per second since the request */
  readonly tokensPerSecond: number
  /** from the request to the first sampled token */
  readonly firstTokenMs: number
}

/**
 * Resolves on a fresh task of the event loop, so pending messages (a cancel) are handled. A
 * MessageChannel message, not setTimeout(0), which browsers clamp to 4 ms once timers nest.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(undefined)
  })
}

/** U+FFFD: what a decoder yields for bytes that do not yet form a whole character. */
const REPLACEMENT = '\uFFFD'

/** Streams one sample's text: emits the new suffix whenever the decoded text does not end mid-character. */
class TextStream {
  private emitted = ''
  constructor(
    private readonly sample: number,
    private readonly onDelta: ((sample: number, delta: string) => void) | undefined,
  ) {}

  update(text: string, final: boolean): void {
    if (!this.onDelta || (!final && text.endsWith(REPLACEMENT)) || !text.startsWith(this.emitted)) return
    const delta = text.slice(this.emitted.length)
    this.emitted = text
    if (delta) this.onDelta(this.sample, delta)
  }
}

class SampleState {
  readonly ids: number[] = []
  stop: StopReason | undefined
  readonly stream: TextStream
  constructor(sample: number, onDelta: GenerateRequest['onDelta']) {
    this.stream = new TextStream(sample, onDelta)
  }

  /** the ids that make the text: the sampled ids without a final EOS */
  textIds(): number[] {
    return this.stop === 'eos' ? this.ids.slice(0, -1) : this.ids
  }
}

function checkRequest(request: GenerateRequest, maxContext: number): void {
  const { promptIds, samples, sampling } = request
  if (promptIds.length === 0) throw new RangeError('generate: the prompt encodes to no tokens')
  if (!Number.isInteger(samples) || samples < 1)
    throw new RangeError(`generate: samples must be a positive integer (got ${samples})`)
  if (!Number.isInteger(sampling.maxNewTokens) || sampling.maxNewTokens < 1)
    throw new RangeError(`generate: maxNewTokens must be a positive integer (got ${sampling.maxNewTokens})`)
  validateSampling(sampling)
  if (promptIds.length >= maxContext)
    throw new RangeError(
      `generate: the prompt (${promptIds.length} tokens) leaves no room in the model's context of ` +
        `${maxContext} tokens; shorten the prompt`,
    )
}

/** New tokens a sample may take: maxNewTokens, or fewer where the context ends first. */
function newTokenLimit(request: GenerateRequest, maxContext: number): number {
  return Math.min(request.sampling.maxNewTokens, maxContext - request.promptIds.length)
}

export async function generate<Cache>(
  decoder: Decoder<Cache>,
  request: GenerateRequest,
): Promise<GenerateOutcome> {
  const now = request.now ?? (() => performance.now())
  const startedAt = request.startedAt ?? now()
  checkRequest(request, decoder.maxContext)
  const { promptIds, samples: g, sampling, eosIds } = request
  const limit = newTokenLimit(request, decoder.maxContext)
  const v = decoder.vocabSize
  const states = Array.from({ length: g }, (_, s) => new SampleState(s, request.onDelta))
  // every row's full sequence, for the decoders that recompute it
  const sequences = states.map(() => [...promptIds])
  let past: Cache | undefined
  let pastLength = 0
  let firstTokenAt: number | undefined
  let sampled = 0

  for (let t = 0; t < limit && states.some((s) => !s.stop); t++) {
    // a wasm run resolves in microtasks: without this the worker would read a cancel only at the end
    await nextTask()
    if (request.signal?.aborted) break
    const seqLen = decoder.usesCache && t > 0 ? 1 : sequences[0]!.length
    // the prefill of a decoder that can repeat its cache runs the prompt once, for every row
    const shared = t === 0 && decoder.usesCache && decoder.expand !== undefined
    const rows = shared ? 1 : g
    const ids = new Int32Array(rows * seqLen)
    for (let r = 0; r < rows; r++) ids.set(sequences[r]!.slice(-seqLen), r * seqLen)
    const out = await decoder.step({ ids, batch: rows, seqLen, pastLength, past })
    if (out.logits.length !== rows * seqLen * v)
      throw new RangeError(
        `generate: the model returned ${out.logits.length} logits, expected ${rows}×${seqLen}×${v} (batch×seq×vocab)`,
      )
    if (decoder.usesCache) {
      if (past !== undefined) decoder.release?.(past)
      past = out.present
      if (shared && past !== undefined) {
        const single = past
        past = decoder.expand!(single, g)
        decoder.release?.(single)
      }
      pastLength += seqLen
    }
    states.forEach((state, r) => {
      const rowEnd = ((shared ? 0 : r) * seqLen + seqLen) * v
      const token = sampleToken(out.logits.subarray(rowEnd - v, rowEnd), sampling, { sample: r, token: t })
      // a stopped sample keeps its row (the batch shape stays fixed) but its tokens are ignored
      sequences[r]!.push(token)
      if (state.stop) return
      state.ids.push(token)
      sampled++
      if (eosIds.includes(token)) state.stop = 'eos'
      else if (state.ids.length === limit) state.stop = 'max-tokens'
      state.stream.update(request.decode(state.textIds()), state.stop !== undefined)
    })
    firstTokenAt ??= now()
  }
  if (past !== undefined) decoder.release?.(past)

  const completions = states.map((state): Completion => {
    const stop = state.stop ?? 'cancelled'
    const text = request.decode(state.textIds())
    state.stream.update(text, true)
    return { text, tokenIds: state.ids, stop }
  })
  const end = now()
  return {
    completions,
    tokensPerSecond: end > startedAt ? sampled / ((end - startedAt) / 1000) : 0,
    firstTokenMs: (firstTokenAt ?? end) - startedAt,
  }
}
