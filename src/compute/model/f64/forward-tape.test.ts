import { describe, expect, it } from 'vitest'
import { forwardF64 } from '../forward-f64.ts'
import { TINY_CONFIG } from '../test-model.ts'
import { randomFlatParams, randomIds } from '../../../../test-support/model/f64-test-helpers.ts'
import { forwardTape } from './forward-tape.ts'

describe('forwardTape', () => {
  it.each([
    ['tied', TINY_CONFIG],
    ['untied', { ...TINY_CONFIG, tiedEmbeddings: false }],
  ])('computes forwardF64 on every row within 1e-10 (%s embeddings)', (_, config) => {
    const model = randomFlatParams(config, `forward/${config.tiedEmbeddings}`)
    const ids = randomIds(config, 13, 'forward/ids')
    const expected = forwardF64(config, new Map(model.views), { ids, batch: 1, seqLen: ids.length })
    const { logits } = forwardTape(config, model.views, ids, ids.length)
    expect(logits.length).toBe(expected.length)
    const worst = logits.reduce((m, x, i) => Math.max(m, Math.abs(x - expected[i]!)), 0)
    expect(worst).toBeLessThan(1e-10)
    // The weights are large enough that the logits spread well beyond rounding noise.
    expect(Math.max(...expected) - Math.min(...expected)).toBeGreaterThan(1)
  })

  it('computes the same last rows when asked for those alone', () => {
    const model = randomFlatParams(TINY_CONFIG, 'forward/last')
    const ids = randomIds(TINY_CONFIG, 9, 'forward/last-ids')
    const all = forwardTape(TINY_CONFIG, model.views, ids, 9).logits
    const { logits } = forwardTape(TINY_CONFIG, model.views, ids, 3)
    expect([...logits]).toEqual([...all.subarray(6 * TINY_CONFIG.vocabSize)])
  })

  it('names what is wrong with bad input', () => {
    const model = randomFlatParams(TINY_CONFIG, 'forward/bad')
    expect(() => forwardTape(TINY_CONFIG, model.views, [1, 99], 1)).toThrow(/token id 99/)
    expect(() => forwardTape(TINY_CONFIG, model.views, new Int32Array(17), 1)).toThrow(/maxSeqLen/)
    expect(() => forwardTape(TINY_CONFIG, model.views, [1, 2], 3)).toThrow(/last 3 rows/)
  })
})
