import { describe, expect, it } from 'vitest'
import { initParams } from '../params.ts'
import { TINY_CONFIG } from '../test-model.ts'
import { adamWState, clipGlobalNorm, type AdamWSettings } from './adamw.ts'
import { flatFromParams } from './flat-params.ts'
import { batchGradient, sftStep } from './sft-step.ts'

const SETTINGS: AdamWSettings = { beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0.01, clipNorm: 1 }

/** A toy task: after the prompt [1, 2, 3, a], answer a + 10 then token 0 (end). */
const toyBatch = [4, 5, 6, 7].map((a) => ({ ids: Int32Array.from([1, 2, 3, a, a + 10, 0]), lossFrom: 4 }))

describe('sftStep', () => {
  it('lowers the answer loss of a toy batch within a few steps', () => {
    const model = flatFromParams(TINY_CONFIG, initParams(TINY_CONFIG, [1, 2]))
    const optimizer = adamWState(model.specs)
    const losses = Array.from({ length: 30 }, () => sftStep(model, optimizer, SETTINGS, 1e-2, toyBatch).loss)
    expect(losses[0]).toBeGreaterThan(Math.log(TINY_CONFIG.vocabSize) - 0.1)
    expect(losses.at(-1)!).toBeLessThan(losses[0]! / 4)
    expect(optimizer.step).toBe(30)
  })

  it('is deterministic: the same steps give the same bits', () => {
    const run = () => {
      const model = flatFromParams(TINY_CONFIG, initParams(TINY_CONFIG, [3, 4]))
      const optimizer = adamWState(model.specs)
      for (let i = 0; i < 3; i++) sftStep(model, optimizer, SETTINGS, 1e-2, toyBatch)
      return model.data
    }
    expect(run()).toEqual(run())
  })

  it('refuses a batch with nothing to predict and a sequence without an answer', () => {
    const model = flatFromParams(TINY_CONFIG, initParams(TINY_CONFIG, [1, 2]))
    expect(() => batchGradient(model, [])).toThrow(/at least one answer token/)
    expect(() => batchGradient(model, [{ ids: Int32Array.from([1, 2]), lossFrom: 2 }])).toThrow(/lossFrom 2/)
  })
})

describe('clipGlobalNorm', () => {
  it('scales gradients down to the limit and leaves small ones alone', () => {
    const big = Float64Array.from([3, 4])
    expect(clipGlobalNorm(big, 1)).toBe(5)
    expect([...big]).toEqual([0.6000000000000001, 0.8])
    const small = Float64Array.from([0.3, 0.4])
    expect(clipGlobalNorm(small, 1)).toBeCloseTo(0.5, 15)
    expect([...small]).toEqual([0.3, 0.4])
  })

  it('decays linear weights but not norm gains', () => {
    const model = flatFromParams(TINY_CONFIG, initParams(TINY_CONFIG, [1, 2]))
    const state = adamWState(model.specs)
    const norm = model.views.get('model.norm.weight')!
    const offset = norm.byteOffset / 8
    expect(state.decay[offset]).toBe(0)
    expect(state.decay[0]).toBe(1)
  })
})
