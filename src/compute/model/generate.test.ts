import { describe, expect, it } from 'vitest'
import { greedyToken } from '../kernels/ref/sampling.ts'
import { qtensor } from '../kernels/ref/tensor.ts'
import { forward, forwardSegments, type KvCache } from './forward.ts'
import { generate, generateGroups, generateRows } from './generate.ts'
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

  it('generateGroups: several prompts side by side, each row the tokens of generate with its seed and step', () => {
    const sampling = { temperatureQ16: 65536, topK: 0, topPQ30: 2 ** 30 }
    const groups = [
      { prompt: sequence.slice(0, 4), seed: [3, 4] as const, steps: [0, 1, 2] },
      // a longer prompt: its rows reach maxSeqLen (16) before maxNewTokens
      { prompt: sequence.slice(1, 10), seed: [5, 6] as const, steps: [7, 0] },
      { prompt: sequence.slice(2, 3), seed: [3, 4] as const, steps: [] },
      { prompt: sequence.slice(0, 2), seed: [1, 1] as const, steps: [4, 5, 6, 7] },
      // no room at all: empty generations
      {
        prompt: Int32Array.from({ length: 16 }, (_, i) => sequence[i % sequence.length]!),
        seed: [2, 2] as const,
        steps: [0],
      },
    ]
    const options = { maxNewTokens: 9, sampling }
    const alone = (eosToken?: number) =>
      groups.map((g) =>
        g.steps.map((step) =>
          generate(TINY_CONFIG, params, g.prompt, { ...options, seed: g.seed, step, eosToken }),
        ),
      )
    const free = alone()
    expect(generateGroups(TINY_CONFIG, params, groups, options)).toEqual(free)
    expect(free[1]!.map((g) => g.tokens.length)).toEqual([7, 7])
    expect(free[4]).toEqual([{ tokens: new Int32Array(0), finishReason: 'max_length' }])
    // an EOS that some rows draw early and others never: groups shrink and finish at different tokens
    const eosToken = free[0]![0]!.tokens[1]!
    const stopped = alone(eosToken)
    expect(new Set(stopped.flat().map((g) => g.tokens.length)).size).toBeGreaterThan(2)
    expect(generateGroups(TINY_CONFIG, params, groups, { ...options, eosToken })).toEqual(stopped)
  })

  it('forwardSegments: each segment the logits and cache of its own forward', () => {
    const first = forward(TINY_CONFIG, params, { ids: sequence.slice(0, 5), batch: 1, seqLen: 5 })
    const segments = [
      { batch: { ids: sequence.slice(5, 7), batch: 1, seqLen: 2 }, past: first.kv },
      { batch: { ids: sequence.slice(0, 6), batch: 2, seqLen: 3 } },
      { batch: { ids: sequence.slice(7, 8), batch: 1, seqLen: 1 }, past: first.kv },
    ]
    const joint = forwardSegments(TINY_CONFIG, params, segments)
    const v = TINY_CONFIG.vocabSize
    let row = 0
    segments.forEach((s, i) => {
      const own = forward(TINY_CONFIG, params, s.batch, s.past)
      const rows = s.batch.ids.length
      expect(Array.from(joint.logits.data.subarray(row * v, (row + rows) * v))).toEqual(
        Array.from(own.logits.data),
      )
      expect(joint.kv[i]).toEqual(own.kv)
      row += rows
    })
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
