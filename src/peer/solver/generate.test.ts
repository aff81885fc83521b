import { describe, expect, it } from 'vitest'
import { TINY_CONFIG } from '../../compute/model/test-model.ts'
import { generate, type GenerateRequest } from './generate.ts'
import { argmax } from './sampling.ts'
import {
  f64Decoder,
  lastLogitsF64,
  scriptedDecoder,
  sharpTinyParams,
} from '../../../test-support/solver/test-decoders.ts'

const params = sharpTinyParams()
const decode = (ids: readonly number[]) => ids.map((id) => String.fromCharCode(97 + id)).join('')
const greedy = { temperature: 0, topK: 0, topP: 1, seed: 0, maxNewTokens: 6 }
const request: GenerateRequest = { promptIds: [3, 17, 5], samples: 2, sampling: greedy, eosIds: [], decode }

function greedyReference(prompt: readonly number[], n: number): number[] {
  const sequence = [...prompt]
  for (let i = 0; i < n; i++) sequence.push(argmax(lastLogitsF64(TINY_CONFIG, params, sequence)))
  return sequence.slice(prompt.length)
}

describe('generate', () => {
  it('greedy completions equal token-by-token f64 decoding, with and without a cache', async () => {
    const expected = greedyReference(request.promptIds, 6)
    for (const cached of [true, false]) {
      const decoder = f64Decoder(TINY_CONFIG, params, cached)
      const out = await generate(decoder, request)
      expect(out.completions.map((c) => c.tokenIds)).toEqual([expected, expected])
      expect(out.completions[0]!.text).toBe(decode(expected))
      expect(out.completions[0]!.stop).toBe('max-tokens')
      // the cached loop prefills the prompt once as a batch of one, then feeds one token per row and step
      if (cached) expect(decoder.calls.map((c) => c.seqLen)).toEqual([3, 1, 1, 1, 1, 1])
      if (cached) expect(decoder.calls.map((c) => c.batch)).toEqual([1, 2, 2, 2, 2, 2])
      if (cached) expect(decoder.calls.map((c) => c.pastLength)).toEqual([0, 3, 4, 5, 6, 7])
      else expect(decoder.calls.map((c) => c.seqLen)).toEqual([3, 4, 5, 6, 7, 8])
    }
  })

  it('samples differ across rows, repeat for a seed, and change with the seed', async () => {
    const decoder = f64Decoder(TINY_CONFIG, params, true)
    const sampling = { ...greedy, temperature: 1.5, seed: 11 }
    const ids = async (seed: number) =>
      (await generate(decoder, { ...request, samples: 4, sampling: { ...sampling, seed } })).completions.map(
        (c) => c.tokenIds,
      )
    const a = await ids(11)
    expect(new Set(a.map((x) => x.join())).size).toBeGreaterThan(1)
    expect(await ids(11)).toEqual(a)
    expect(await ids(12)).not.toEqual(a)
  })

  it('stops a sample at any EOS id, keeps the EOS id out of the text, and ignores its later tokens', async () => {
    // every row follows the script: 4 5 6 7 …; eos ids 6 and 9
    const decoder = scriptedDecoder([4, 5, 6, 7, 8], 24, 3)
    const out = await generate(decoder, { ...request, eosIds: [9, 6] })
    expect(out.completions[0]).toEqual({ tokenIds: [4, 5, 6], text: 'ef', stop: 'eos' })
  })

  it('stops at maxNewTokens and reports timing', async () => {
    let clock = 0
    const out = await generate(scriptedDecoder([1, 2, 3, 4], 24, 3), {
      ...request,
      sampling: { ...greedy, maxNewTokens: 2 },
      now: () => (clock += 100),
    })
    expect(out.completions.map((c) => c.tokenIds)).toEqual([
      [1, 2],
      [1, 2],
    ])
    expect(out.completions[1]!.stop).toBe('max-tokens')
    // clock: start 100, first token at 200 (after step 1), end at 300 → 4 tokens in 0.2 s
    expect(out.firstTokenMs).toBe(100)
    expect(out.tokensPerSecond).toBeCloseTo(4 / 0.2, 6)
  })

  it('cancels between steps and keeps the tokens so far', async () => {
    const controller = new AbortController()
    const out = await generate(scriptedDecoder([1, 2, 3, 4, 5, 6], 24, 3), {
      ...request,
      signal: controller.signal,
      onDelta: (_, delta) => delta === 'c' && controller.abort(),
    })
    expect(out.completions[0]).toEqual({ tokenIds: [1, 2], text: 'bc', stop: 'cancelled' })
  })

  it('streams deltas that never split a UTF-8 character', async () => {
    // token ids are bytes: "a€b" is 61 E2 82 AC 62; the euro sign spans three tokens
    const bytes = [0x61, 0xe2, 0x82, 0xac, 0x62]
    const utf8 = (ids: readonly number[]) => new TextDecoder().decode(Uint8Array.from(ids))
    const deltas: string[] = []
    const out = await generate(scriptedDecoder(bytes, 256, 1), {
      ...request,
      promptIds: [0],
      samples: 1,
      sampling: { ...greedy, maxNewTokens: 5 },
      decode: utf8,
      onDelta: (sample, delta) => deltas.push(`${sample}:${delta}`),
    })
    expect(deltas).toEqual(['0:a', '0:€', '0:b'])
    expect(out.completions[0]!.text).toBe('a€b')
  })

  it('stops where the context ends when maxNewTokens would go past it', async () => {
    const long = {
      ...request,
      promptIds: Array<number>(12).fill(1),
      sampling: { ...greedy, maxNewTokens: 5 },
    }
    const out = await generate({ ...scriptedDecoder([1, 2, 3, 4, 5, 6], 24, 12), maxContext: 16 }, long)
    expect(out.completions.map((c) => [c.tokenIds, c.stop])).toEqual([
      [[1, 2, 3, 4], 'max-tokens'],
      [[1, 2, 3, 4], 'max-tokens'],
    ])
  })

  it('refuses a prompt that fills the context, and bad requests, by name', async () => {
    const decoder = f64Decoder(TINY_CONFIG, params, true)
    const full = { ...request, promptIds: Array<number>(16).fill(1) }
    await expect(generate(decoder, full)).rejects.toThrow(/16 tokens.*no room.*context of 16/)
    await expect(generate(decoder, { ...request, promptIds: [] })).rejects.toThrow(/no tokens/)
    await expect(generate(decoder, { ...request, samples: 0 })).rejects.toThrow(/samples/)
    await expect(generate(decoder, { ...request, sampling: { ...greedy, topP: 2 } })).rejects.toThrow(/topP/)
  })
})
