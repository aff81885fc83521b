import { describe, expect, it } from 'vitest'
import { toFloat } from '../kernels/ref/tensor.ts'
import { weightsHash } from './checkpoint.ts'
import type { Batch } from './forward.ts'
import { initParams } from './params.ts'
import { TINY_CONFIG } from './test-model.ts'
import { initTrainState, trainStep, type TrainConfig } from './train-step.ts'

const params = initParams(TINY_CONFIG, [5, 0])

describe('supervised training step', () => {
  // a toy next-token task: each sequence counts upward modulo the vocabulary
  const batch: Batch = {
    ids: Int32Array.from({ length: 4 * 8 }, (_, i) => (3 * Math.floor(i / 8) + (i % 8)) % 24),
    batch: 4,
    seqLen: 8,
  }
  const targets = Int32Array.from(batch.ids, (id) => (id + 1) % 24)
  const train: TrainConfig = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, maxGradNorm: 1 }

  it('is deterministic and learns the toy task', () => {
    let state = initTrainState(TINY_CONFIG, params)
    const losses: number[] = []
    for (let step = 0; step < 12; step++) {
      const r = trainStep(TINY_CONFIG, state, batch, targets, train)
      losses.push(toFloat(r.loss)[0]!)
      state = r.state
    }
    expect(losses.at(-1)!).toBeLessThan(losses[0]! / 2)
    const again = trainStep(TINY_CONFIG, initTrainState(TINY_CONFIG, params), batch, targets, train)
    const first = trainStep(TINY_CONFIG, initTrainState(TINY_CONFIG, params), batch, targets, train)
    expect(weightsHash(TINY_CONFIG, again.state.params)).toBe(weightsHash(TINY_CONFIG, first.state.params))
    expect(again.gradNorm).toBe(first.gradNorm)
  })
})
