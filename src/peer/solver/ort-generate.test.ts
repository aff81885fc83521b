// The generation loop over a real onnxruntime-web session (the Node build, wasm EP) of a model written
// by exportOnnx, checked against the float64 reference model.
import * as ort from 'onnxruntime-web'
import { beforeAll, describe, expect, it } from 'vitest'
import { headDim } from '../../compute/model/config.ts'
import { exportOnnx } from '../../compute/model/onnx/export-onnx.ts'
import { TINY_CONFIG } from '../../compute/model/test-model.ts'
import { generate, type Decoder, type GenerateRequest } from './generate.ts'
import { ortDecoder, type OrtKvCache } from './ort-decoder.ts'
import { createSession } from './ort-runtime.ts'
import { argmax } from './sampling.ts'
import { lastLogitsF64, sharpTinyParams } from '../../../test-support/solver/test-decoders.ts'

const params = sharpTinyParams()
const shape = { vocabSize: 24, maxContext: 16, kvHeads: TINY_CONFIG.kvHeads, headDim: headDim(TINY_CONFIG) }
const greedy = { temperature: 0, topK: 0, topP: 1, seed: 0, maxNewTokens: 8 }
const request: GenerateRequest = {
  promptIds: [3, 17, 5, 9],
  samples: 3,
  sampling: greedy,
  eosIds: [],
  decode: (ids) => ids.join(' '),
}
let decoder: Decoder<OrtKvCache>

beforeAll(async () => {
  decoder = ortDecoder(ort, await createSession(ort, 'wasm', exportOnnx(TINY_CONFIG, params)), shape)
}, 60_000)

describe('generation on onnxruntime-web', () => {
  it('uses the KV cache and greedy completions equal token-by-token f64 decoding', async () => {
    expect(decoder.usesCache).toBe(true)
    const sequence = [...request.promptIds]
    for (let i = 0; i < greedy.maxNewTokens; i++)
      sequence.push(argmax(lastLogitsF64(TINY_CONFIG, params, sequence)))
    const expected = sequence.slice(request.promptIds.length)
    expect(new Set(expected).size).toBeGreaterThan(2) // a real sequence, not one repeated token
    const out = await generate(decoder, request)
    expect(out.completions.map((c) => c.tokenIds)).toEqual([expected, expected, expected])
    expect(out.completions.every((c) => c.stop === 'max-tokens')).toBe(true)
    expect(out.tokensPerSecond).toBeGreaterThan(0)
  })

  it('prefill logits match the f64 model to f32 precision', async () => {
    const ids = Int32Array.from(request.promptIds)
    const { logits } = await decoder.step({
      ids,
      batch: 1,
      seqLen: ids.length,
      pastLength: 0,
      past: undefined,
    })
    const reference = lastLogitsF64(TINY_CONFIG, params, request.promptIds)
    const last = logits.subarray(logits.length - 24)
    const scale = Math.max(...reference.map(Math.abs))
    reference.forEach((x, j) => expect(Math.abs(last[j]! - x)).toBeLessThan(1e-4 * scale))
  })

  it('samples at temperature > 0 differ across rows and repeat for the same seed', async () => {
    const sampling = { ...greedy, temperature: 2, seed: 99 }
    const run = async (seed: number) =>
      (await generate(decoder, { ...request, samples: 4, sampling: { ...sampling, seed } })).completions.map(
        (c) => c.tokenIds,
      )
    const first = await run(99)
    expect(new Set(first.map((ids) => ids.join())).size).toBeGreaterThan(1)
    expect(await run(99)).toEqual(first)
    expect(await run(100)).not.toEqual(first)
  })

  it('stops each sample at its EOS and the rest at max tokens', async () => {
    const sampling = { ...greedy, temperature: 2, seed: 5, maxNewTokens: 6 }
    const free = (await generate(decoder, { ...request, samples: 4, sampling })).completions
    // make the second token of sample 0 an EOS: that sample stops there, the others run on unless they meet it
    const eos = free[0]!.tokenIds[1]!
    const out = (await generate(decoder, { ...request, samples: 4, sampling, eosIds: [eos] })).completions
    expect(out[0]).toMatchObject({ tokenIds: free[0]!.tokenIds.slice(0, 2), stop: 'eos' })
    out.forEach((c, s) => {
      const cut = free[s]!.tokenIds.indexOf(eos)
      expect(c.tokenIds).toEqual(cut < 0 ? free[s]!.tokenIds : free[s]!.tokenIds.slice(0, cut + 1))
      expect(c.stop).toBe(cut < 0 ? 'max-tokens' : 'eos')
    })
  })

  it('cancels mid-generation', async () => {
    const controller = new AbortController()
    let deltas = 0
    const out = await generate(decoder, {
      ...request,
      signal: controller.signal,
      onDelta: (sample) => sample === 2 && ++deltas === 3 && controller.abort(),
    })
    expect(out.completions.map((c) => [c.tokenIds.length, c.stop])).toEqual([
      [3, 'cancelled'],
      [3, 'cancelled'],
      [3, 'cancelled'],
    ])
  })

  it('refuses an ONNX model with inputs it cannot feed', async () => {
    const session = {
      inputNames: ['input_ids', 'token_type_ids'],
      outputNames: ['logits'],
      inputMetadata: [],
    }
    expect(() => ortDecoder(ort, session as never, shape)).toThrow(/does not feed: token_type_ids/)
  })
})
