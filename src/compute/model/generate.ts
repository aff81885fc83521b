import type { SamplingParams } from '../kernels/ref/sampling.ts'
import { qtensor, type QTensor } from '../kernels/ref/tensor.ts'
import type { ModelConfig } from './config.ts'
import { forwardProgram, type KvCache } from './forward.ts'
import type { Params } from './params.ts'
import { op, type Program } from './program.ts'
import { scopedTrace, type TraceHook } from './trace-hook.ts'
import { onTwin } from './twin-ops.ts'

export interface GenerateOptions {
  readonly maxNewTokens: number
  readonly sampling: SamplingParams
  /** Philox key words. */
  readonly seed: readonly [number, number]
  /** Counter word distinguishing generations with the same seed (e.g. the round). */
  readonly step: number
  readonly eosToken?: number
}

export interface Generation {
  readonly tokens: Int32Array
  readonly finishReason: 'eos_token' | 'max_length'
}

/**
 * Reproducible generation, as a program: a prefill over the prompt, then one KV-cached step per token; the draw for
 * the token at position p uses Philox counter (step, p). Same inputs, same tokens, on any backend.
 * `trace` sees token<i>/… for the forward pass that produced new token i, then token<i>/sample (the
 * token id as a [1] tensor at exponent 0).
 */
export function* generateProgram(
  config: ModelConfig,
  params: Params,
  prompt: Int32Array,
  options: GenerateOptions,
  trace?: TraceHook,
): Program<Generation> {
  if (prompt.length === 0) throw new RangeError('generate: the prompt needs at least one token')
  const room = config.maxSeqLen - prompt.length
  const limit = Math.min(options.maxNewTokens, room)
  const tokens: number[] = []
  let ids = prompt
  let past: KvCache | undefined
  while (tokens.length < limit) {
    const scope = scopedTrace(trace, `token${tokens.length}/`)
    const result = yield* forwardProgram(config, params, { ids, batch: 1, seqLen: ids.length }, past, scope)
    past = result.kv
    const v = config.vocabSize
    const last = qtensor(
      [v],
      result.logits.exp,
      result.logits.data.slice((ids.length - 1) * v, ids.length * v),
    )
    const token = yield* op('sampleToken', last, options.sampling, {
      seed: options.seed,
      step: options.step,
      position: past.length,
    })
    scope?.('sample', qtensor([1], 0, Int32Array.of(token)))
    tokens.push(token)
    if (token === options.eosToken) return { tokens: Int32Array.from(tokens), finishReason: 'eos_token' }
    ids = Int32Array.of(token)
  }
  return { tokens: Int32Array.from(tokens), finishReason: 'max_length' }
}

/** `generateProgram` on the TS twin. */
export const generate = onTwin(generateProgram)

/** The cache's sequences `keep` (indices into its batch of `batch`), or each of one sequence `copies` times. */
function cacheRows(kv: KvCache, batch: number, keep: readonly number[]): KvCache {
  const pick = (t: QTensor): QTensor => {
    const c = t.shape[1]!
    const rows = t.shape[0]! / batch
    const out = qtensor([keep.length * rows, c], t.exp)
    keep.forEach((b, i) => out.data.set(t.data.subarray(b * rows * c, (b + 1) * rows * c), i * rows * c))
    return out
  }
  return { length: kv.length, layers: kv.layers.map(({ k, v }) => ({ k: pick(k), v: pick(v) })) }
}

/**
 * `generateProgram` for several rows of one prompt at once, row r drawing with Philox counter
 * (steps[r], position): one prefill of the prompt, its cache copied to every row, then one KV-cached
 * step over all unfinished rows per token. Every format is row-local, so each row's logits, and so
 * its tokens, are the same bits as `generateProgram` with step = steps[r] (the batch only shares the
 * work). Untraced: re-execution of a receipt replays `generateProgram`.
 */
export function* generateRowsProgram(
  config: ModelConfig,
  params: Params,
  prompt: Int32Array,
  options: Omit<GenerateOptions, 'step'>,
  steps: readonly number[],
): Program<Generation[]> {
  if (prompt.length === 0) throw new RangeError('generate: the prompt needs at least one token')
  const limit = Math.min(options.maxNewTokens, config.maxSeqLen - prompt.length)
  const v = config.vocabSize
  const tokens = steps.map((): number[] => [])
  const done: (Generation | undefined)[] = steps.map(() => undefined)
  if (limit <= 0) return steps.map(() => ({ tokens: new Int32Array(0), finishReason: 'max_length' as const }))
  const prefill = yield* forwardProgram(config, params, { ids: prompt, batch: 1, seqLen: prompt.length })
  let past = cacheRows(
    prefill.kv,
    1,
    steps.map(() => 0),
  )
  let logits = qtensor([steps.length, v], prefill.logits.exp)
  const last = prefill.logits.data.subarray((prompt.length - 1) * v, prompt.length * v)
  steps.forEach((_, r) => logits.data.set(last, r * v))
  let active = steps.map((_, r) => r)
  for (;;) {
    // sample every active row (row i of logits is active[i]), then drop the finished ones
    const next: number[] = []
    for (const [i, r] of active.entries()) {
      const row = qtensor([v], logits.exp, logits.data.slice(i * v, (i + 1) * v))
      const token = yield* op('sampleToken', row, options.sampling, {
        seed: options.seed,
        step: steps[r]!,
        position: past.length,
      })
      tokens[r]!.push(token)
      if (token === options.eosToken)
        done[r] = { tokens: Int32Array.from(tokens[r]!), finishReason: 'eos_token' }
      else if (tokens[r]!.length >= limit)
        done[r] = { tokens: Int32Array.from(tokens[r]!), finishReason: 'max_length' }
      else next.push(i)
    }
    if (next.length === 0) return done as Generation[]
    if (next.length < active.length) past = cacheRows(past, active.length, next)
    active = next.map((i) => active[i]!)
    const ids = Int32Array.from(active, (r) => tokens[r]!.at(-1)!)
    const step = yield* forwardProgram(config, params, { ids, batch: active.length, seqLen: 1 }, past)
    past = step.kv
    logits = step.logits
  }
}

/** `generateRowsProgram` on the TS twin. */
export const generateRows = onTwin(generateRowsProgram)
