import { describe, expect, it } from 'vitest'
import { maxRelToPeak } from '../kernels/ref/f64-reference.ts'
import { seededRandom } from '../kernels/ref/seeded-random.ts'
import { toFloat } from '../kernels/ref/tensor.ts'
import { forward, type Batch } from './forward.ts'
import { forwardF64 } from './forward-f64.ts'
import { initParams } from './params.ts'
import { paramsF64, TINY_CONFIG } from './test-model.ts'

const rand = seededRandom(81)
const params = initParams(TINY_CONFIG, [1, 2])
const batch: Batch = {
  ids: Int32Array.from({ length: 2 * 8 }, () => Math.floor(rand() * 24)),
  batch: 2,
  seqLen: 8,
}

describe('forward pass vs f64', () => {
  const { logits } = forward(TINY_CONFIG, params, batch)

  it('logits are within 2e-4 of the f64 model, relative to the peak', () => {
    expect(maxRelToPeak(toFloat(logits), forwardF64(TINY_CONFIG, paramsF64(params), batch))).toBeLessThan(
      2e-4,
    )
  })

  it('a position depends only on its own past: later tokens and other sequences do not move its bits', () => {
    const ids = Int32Array.from(batch.ids)
    ids[6] = (ids[6]! + 1) % 24 // later token of sequence 0
    ids.fill(3, 8) // all of sequence 1
    const other = forward(TINY_CONFIG, params, { ...batch, ids }).logits
    expect(Array.from(other.data.subarray(0, 6 * 24))).toEqual(Array.from(logits.data.subarray(0, 6 * 24)))
  })
})
