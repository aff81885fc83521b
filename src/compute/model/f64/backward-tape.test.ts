import { describe, expect, it } from 'vitest'
import { TINY_CONFIG } from '../test-model.ts'
import type { ModelConfig } from '../config.ts'
import { randomFlatParams, randomIds } from '../../../../test-support/model/f64-test-helpers.ts'
import { flatViews } from './flat-params.ts'
import { accumulateSequence } from './sft-step.ts'

/** Summed answer-token loss of one sequence and its analytic gradient. */
function lossAndGradient(config: ModelConfig, key: string) {
  const model = randomFlatParams(config, key)
  const seq = { ids: randomIds(config, 11, `${key}/ids`), lossFrom: 4 }
  const grads = new Float64Array(model.data.length)
  const loss = () =>
    accumulateSequence(
      config,
      model.views,
      flatViews(model.specs, new Float64Array(model.data.length)),
      seq,
      1,
    )
  accumulateSequence(config, model.views, flatViews(model.specs, grads), seq, 1)
  return { model, grads, loss }
}

describe('backwardTape', () => {
  it.each([
    ['tied', TINY_CONFIG],
    ['untied', { ...TINY_CONFIG, tiedEmbeddings: false }],
  ])('matches central finite differences on every parameter (%s embeddings)', (_, config) => {
    const { model, grads, loss } = lossAndGradient(config, `grad/${config.tiedEmbeddings}`)
    const h = 1e-5
    let offset = 0
    for (const spec of model.specs) {
      const n = spec.shape.reduce((a, b) => a * b, 1)
      // Three elements of each tensor: the first, one in the middle, the last.
      for (const i of [offset, offset + Math.floor(n / 2) + 1, offset + n - 1]) {
        const saved = model.data[i]!
        model.data[i] = saved + h
        const up = loss()
        model.data[i] = saved - h
        const down = loss()
        model.data[i] = saved
        const numeric = (up - down) / (2 * h)
        expect(Math.abs(numeric - grads[i]!), `${spec.name}[${i - offset}]`).toBeLessThan(
          1e-6 * Math.max(1, Math.abs(numeric)),
        )
      }
      offset += n
    }
  })

  it('gives embedding rows of tokens that never occur no gradient from the input side', () => {
    const config = { ...TINY_CONFIG, tiedEmbeddings: false }
    const model = randomFlatParams(config, 'grad/unused')
    const ids = Int32Array.from([1, 2, 3, 1, 2])
    const grads = new Float64Array(model.data.length)
    accumulateSequence(config, model.views, flatViews(model.specs, grads), { ids, lossFrom: 2 }, 1)
    const dEmbed = flatViews(model.specs, grads).get('model.embed_tokens.weight')!
    const d = config.dim
    expect(dEmbed.subarray(5 * d, 6 * d).every((x) => x === 0)).toBe(true)
    expect(dEmbed.subarray(1 * d, 2 * d).some((x) => x !== 0)).toBe(true)
  })
})
