import { describe, expect, it } from 'vitest'
import { TINY_CONFIG } from '../test-model.ts'
import { randomFlatParams, randomIds } from '../../../../test-support/model/f64-test-helpers.ts'
import { forwardTape } from './forward-tape.ts'
import { GreedyDecoder } from './greedy-decoder.ts'

function argmaxRow(logits: Float64Array, row: number, vocab: number): number {
  const slice = [...logits.subarray(row * vocab, (row + 1) * vocab)]
  return slice.indexOf(Math.max(...slice))
}

describe('GreedyDecoder', () => {
  it('appends the argmax of a full forward at every step', () => {
    const model = randomFlatParams(TINY_CONFIG, 'greedy')
    const prompt = [...randomIds(TINY_CONFIG, 5, 'greedy/prompt')]
    const out = new GreedyDecoder(TINY_CONFIG, model.views).generate(prompt, {
      maxNewTokens: 6,
      stopToken: -1,
    })
    expect(out).toHaveLength(6)
    const seq = [...prompt]
    for (const token of out) {
      const { logits } = forwardTape(TINY_CONFIG, model.views, seq, seq.length)
      expect(token).toBe(argmaxRow(logits, seq.length - 1, TINY_CONFIG.vocabSize))
      seq.push(token)
    }
  })

  it('stops after the stop token and at maxSeqLen', () => {
    const model = randomFlatParams(TINY_CONFIG, 'greedy/stop')
    const decoder = new GreedyDecoder(TINY_CONFIG, model.views)
    const prompt = [1, 2, 3]
    const free = decoder.generate(prompt, { maxNewTokens: 4, stopToken: -1 })
    expect(decoder.generate(prompt, { maxNewTokens: 4, stopToken: free[1]! })).toEqual(free.slice(0, 2))
    const long = decoder.generate(prompt, { maxNewTokens: 100, stopToken: -1 })
    expect(prompt.length + long.length).toBe(TINY_CONFIG.maxSeqLen + 1)
  })
})
