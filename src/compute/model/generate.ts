import type { SamplingParams } from '../kernels/ref/sampling.ts'
import { qtensor, type QTensor } from '../kernels/ref/tensor.ts'
import type { ModelConfig } from './config.ts'
import { forwardProgram, forwardSegmentsProgram, type KvCache } from './forward.ts'
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

/** One prompt's rows in `generateGroupsProgram`: row r draws with Philox key `seed`, counter (steps[r], position). */
export interface GenerationGroup {
  readonly prompt: Int32Array
  readonly seed: readonly [number, number]
  readonly steps: readonly number[]
}

/** A group's decoding state between tokens: its cache holds its active rows, in order. */
interface Decoding {
  /** the group's index in the call's groups */
  readonly index: number
  readonly group: GenerationGroup
  readonly limit: number
  readonly tokens: number[][]
  readonly done: (Generation | undefined)[]
  active: number[]
  past: KvCache
  /** [active.length, vocab]: the logits of each active row's next token */
  logits: QTensor
}

/**
 * One token for each active row of a group (row i of its logits is active[i]); the finished rows leave
 * `active` and their cache rows are dropped.
 */
function* drawNext(d: Decoding, options: Omit<GenerateOptions, 'step' | 'seed'>): Program<void> {
  const v = d.logits.shape[1]!
  const next: number[] = []
  for (const [i, r] of d.active.entries()) {
    const row = qtensor([v], d.logits.exp, d.logits.data.slice(i * v, (i + 1) * v))
    const token = yield* op('sampleToken', row, options.sampling, {
      seed: d.group.seed,
      step: d.group.steps[r]!,
      position: d.past.length,
    })
    const tokens = d.tokens[r]!
    tokens.push(token)
    if (token === options.eosToken) d.done[r] = { tokens: Int32Array.from(tokens), finishReason: 'eos_token' }
    else if (tokens.length >= d.limit)
      d.done[r] = { tokens: Int32Array.from(tokens), finishReason: 'max_length' }
    else next.push(i)
  }
  if (next.length > 0 && next.length < d.active.length) d.past = cacheRows(d.past, d.active.length, next)
  d.active = next.map((i) => d.active[i]!)
}

/**
 * `generateProgram` for several rows of several prompts at once, group g's row r drawing as
 * `generateProgram` with seed = g.seed and step = g.steps[r]: one prefill pass over every prompt, each
 * prompt's cache copied to its rows, then one KV-cached pass over all unfinished rows per token
 * (`forwardSegmentsProgram`: a segment per prompt). Every format is row-local, so each row's logits,
 * and so its tokens, are the same bits as its own `generateProgram` (the batch only shares the work).
 * Untraced: re-execution of a receipt replays `generateProgram`.
 */
export function* generateGroupsProgram(
  config: ModelConfig,
  params: Params,
  groups: readonly GenerationGroup[],
  options: Omit<GenerateOptions, 'step' | 'seed'>,
): Program<Generation[][]> {
  if (groups.some((g) => g.prompt.length === 0))
    throw new RangeError('generate: the prompt needs at least one token')
  const v = config.vocabSize
  const limits = groups.map((g) => Math.min(options.maxNewTokens, config.maxSeqLen - g.prompt.length))
  const results: (Generation[] | undefined)[] = groups.map((g, i) =>
    limits[i]! <= 0
      ? g.steps.map(() => ({ tokens: new Int32Array(0), finishReason: 'max_length' }))
      : undefined,
  )
  const started = groups.flatMap((group, i) => (results[i] || group.steps.length === 0 ? [] : [i]))
  if (started.length === 0) return results.map((r) => r ?? [])
  const prefill = yield* forwardSegmentsProgram(
    config,
    params,
    started.map((i) => ({ batch: { ids: groups[i]!.prompt, batch: 1, seqLen: groups[i]!.prompt.length } })),
  )
  let at = 0
  let live: Decoding[] = started.map((i, s) => {
    const group = groups[i]!
    const n = group.steps.length
    at += group.prompt.length
    const logits = qtensor([n, v], prefill.logits.exp)
    const last = prefill.logits.data.subarray((at - 1) * v, at * v)
    for (let r = 0; r < n; r++) logits.data.set(last, r * v)
    return {
      index: i,
      group,
      limit: limits[i]!,
      tokens: group.steps.map((): number[] => []),
      done: group.steps.map(() => undefined),
      active: group.steps.map((_, r) => r),
      past: cacheRows(
        prefill.kv[s]!,
        1,
        group.steps.map(() => 0),
      ),
      logits,
    }
  })
  for (;;) {
    // a token for every active row; a group whose rows have all finished is done
    for (const d of live) {
      yield* drawNext(d, options)
      if (d.active.length === 0) results[d.index] = d.done as Generation[]
    }
    live = live.filter((d) => d.active.length > 0)
    if (live.length === 0) return results.map((r) => r ?? [])
    const step = yield* forwardSegmentsProgram(
      config,
      params,
      live.map((d) => ({
        batch: {
          ids: Int32Array.from(d.active, (r) => d.tokens[r]!.at(-1)!),
          batch: d.active.length,
          seqLen: 1,
        },
        past: d.past,
      })),
    )
    let row = 0
    for (const [s, d] of live.entries()) {
      d.past = step.kv[s]!
      d.logits = qtensor(
        [d.active.length, v],
        step.logits.exp,
        step.logits.data.subarray(row * v, (row + d.active.length) * v),
      )
      row += d.active.length
    }
  }
}

/** `generateGroupsProgram` on the TS twin. */
export const generateGroups = onTwin(generateGroupsProgram)

/** `generateGroupsProgram` for the rows of one prompt, row r drawing with Philox counter (steps[r], position). */
export function* generateRowsProgram(
  config: ModelConfig,
  params: Params,
  prompt: Int32Array,
  options: Omit<GenerateOptions, 'step'>,
  steps: readonly number[],
): Program<Generation[]> {
  const [rows] = yield* generateGroupsProgram(
    config,
    params,
    [{ prompt, seed: options.seed, steps }],
    options,
  )
  return rows!
}

/** `generateRowsProgram` on the TS twin. */
export const generateRows = onTwin(generateRowsProgram)
