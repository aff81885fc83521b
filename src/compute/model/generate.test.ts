import { describe, expect, it } from 'vitest'
import { greedyToken } from '../kernels/ref/sampling.ts'
import { qtensor } from '../kernels/ref/tensor.ts'
import { forward, type KvCache } from './forward.ts'
import { generate, generateRows } from './generate.ts'
import { initParams } from './params.ts'
import { TINY_CONFIG } from './test-model.ts'

const params = initParams(TINY_CONFIG, [9, 9])
const sequence = Int32Array.of(3, 17, 5, 5, 22, 0, 9, 14, 1, 7)

describe('KV-cached decoding', () => {
  it('gives the same logit bits as one full forward, whatever the chunking', () => {
    const full = forward(TINY_CONFIG, params, { ids: sequence, batch: 1, seqLen: sequence.length }).logits
    const v = TINY_CONFIG.vocabSize
    let past: KvCache | undefined
    let at = 0
    for (const size of [4, 1, 1, 3, 1]) {
      const ids = sequence.slice(at, at + size)
      const step = forward(TINY_CONFIG, params, { ids, batch: 1, seqLen: size }, past)
      expect(Array.from(step.logits.data)).toEqual(Array.from(full.data.subarray(at * v, (at + size) * v)))
      past = step.kv
      at += size
    }
  })

  it('generates deterministically, stops at the length limit or the EOS token', () => {
    const sampling = { temperatureQ16: 65536, topK: 0, topPQ30: 2 ** 30 }
    const options = { maxNewTokens: 6, sampling, seed: [1, 2] as const, step: 0 }
    const a = generate(TINY_CONFIG, params, sequence.slice(0, 3), options)
    expect(a).toEqual(generate(TINY_CONFIG, params, sequence.slice(0, 3), options))
    expect(a.tokens).toHaveLength(6)
    expect(a.finishReason).toBe('max_length')
    const stop = generate(TINY_CONFIG, params, sequence.slice(0, 3), { ...options, eosToken: a.tokens[2]! })
    expect(stop.finishReason).toBe('eos_token')
    expect(Array.from(stop.tokens)).toEqual(Array.from(a.tokens.slice(0, stop.tokens.length)))
  })

  it('generateRows: each row the tokens and finish reason of generate with its step, rows finishing early dropped', () => {
    const sampling = { temperatureQ16: 65536, topK: 0, topPQ30: 2 ** 30 }
    const prompt = sequence.slice(0, 4)
    const steps = [0, 1, 2, 3, 4, 5, 6, 7]
    const options = { maxNewTokens: 9, sampling, seed: [3, 4] as const }
    const free = steps.map((step) => generate(TINY_CONFIG, params, prompt, { ...options, step }))
    // an EOS that some rows draw early and others never: the batch shrinks mid-way
    const eosToken = free[0]!.tokens[1]!
    const one = steps.map((step) => generate(TINY_CONFIG, params, prompt, { ...options, step, eosToken }))
    const rows = generateRows(TINY_CONFIG, params, prompt, { ...options, eosToken }, steps)
    expect(rows).toEqual(one)
    expect(new Set(one.map((g) => g.tokens.length)).size).toBeGreaterThan(1)
    expect(generateRows(TINY_CONFIG, params, prompt, options, steps)).toEqual(free)
  })

  it('greedy tokens are the argmax of a full forward over the generated text', () => {
    const prompt = sequence.slice(0, 3)
    const greedy = { temperatureQ16: 0, topK: 0, topPQ30: 2 ** 30 }
    const { tokens } = generate(TINY_CONFIG, params, prompt, {
      maxNewTokens: 5,
      sampling: greedy,
      seed: [0, 0],
      step: 0,
    })
    const text = Int32Array.from([...prompt, ...tokens])
    const logits = forward(TINY_CONFIG, params, { ids: text, batch: 1, seqLen: text.length }).logits
    const v = TINY_CONFIG.vocabSize
    tokens.forEach((token, i) => {
      const row = prompt.length - 1 + i
      expect(greedyToken(qtensor([v], logits.exp, logits.data.slice(row * v, (row + 1) * v)))).toBe(token)
    })
  })
})
