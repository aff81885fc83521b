import type { SamplingParams } from '../kernels/ref/sampling.ts'
import { qtensor } from '../kernels/ref/tensor.ts'
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
