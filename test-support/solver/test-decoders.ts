// Decoders for the generation-loop tests: the float64 reference model (with and without a cache) and a
// scripted decoder whose greedy choice follows a fixed token list.
import type { ModelConfig } from '../../src/compute/model/config.ts'
import { forwardF64 } from '../../src/compute/model/forward-f64.ts'
import { initParams } from '../../src/compute/model/params.ts'
import { TINY_CONFIG, paramsF64 } from '../../src/compute/model/test-model.ts'
import type { Decoder } from '../../src/peer/solver/generate.ts'

/**
 * TINY weights scaled up so logits differ by far more than f32 rounding: greedy decoding then picks
 * the same token in f32 (onnxruntime) and f64 (the reference).
 */
export function sharpTinyParams(
  seed: readonly [number, number] = [3, 4],
  scale = 40,
): Map<string, Float64Array> {
  const params = paramsF64(initParams(TINY_CONFIG, seed))
  for (const [name, values] of params)
    if (!name.includes('norm'))
      params.set(
        name,
        values.map((x) => x * scale),
      )
  return params
}

/** The last position's logits of the f64 model for each sequence. */
export function lastLogitsF64(
  config: ModelConfig,
  params: Map<string, Float64Array>,
  sequence: readonly number[],
): Float64Array {
  const logits = forwardF64(config, params, {
    ids: Int32Array.from(sequence),
    batch: 1,
    seqLen: sequence.length,
  })
  return logits.subarray(logits.length - config.vocabSize)
}

/**
 * The f64 model as a decoder. With `cached` its "cache" is the token history per row, so the loop's
 * cache bookkeeping (past length, one new token per row) is exercised; `calls` records each step's shape.
 */
export function f64Decoder(
  config: ModelConfig,
  params: Map<string, Float64Array>,
  cached: boolean,
): Decoder<number[][]> & { calls: { batch: number; seqLen: number; pastLength: number }[] } {
  const calls: { batch: number; seqLen: number; pastLength: number }[] = []
  return {
    vocabSize: config.vocabSize,
    maxContext: config.maxSeqLen,
    usesCache: cached,
    calls,
    step({ ids, batch, seqLen, pastLength, past }) {
      calls.push({ batch, seqLen, pastLength })
      if ((past?.[0]?.length ?? 0) !== pastLength) throw new Error('past length does not match the cache')
      const present = Array.from({ length: batch }, (_, r) => [
        ...(past?.[r] ?? []),
        ...ids.subarray(r * seqLen, (r + 1) * seqLen),
      ])
      const v = config.vocabSize
      const logits = new Float32Array(batch * seqLen * v)
      present.forEach((row, r) => {
        const all = forwardF64(config, params, { ids: Int32Array.from(row), batch: 1, seqLen: row.length })
        logits.set(all.subarray(all.length - seqLen * v), r * seqLen * v)
      })
      return Promise.resolve({ logits, present: cached ? present : undefined })
    },
    expand: (cache, batch) => Array.from({ length: batch }, () => [...cache[0]!]),
  }
}

/** A decoder whose argmax after n generated tokens is script[n] (every row alike). */
export function scriptedDecoder(
  script: readonly number[],
  vocabSize: number,
  promptLength: number,
): Decoder<number> {
  return {
    vocabSize,
    maxContext: 64,
    usesCache: true,
    step({ batch, seqLen, pastLength }) {
      const logits = new Float32Array(batch * seqLen * vocabSize)
      const next = script[pastLength + seqLen - promptLength] ?? 0
      for (let r = 0; r < batch; r++) logits[(r * seqLen + seqLen - 1) * vocabSize + next] = 10
      return Promise.resolve({ logits, present: pastLength + seqLen })
    },
  }
}
