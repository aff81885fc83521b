import { describe, expect, it } from 'vitest'
import { buildRolloutBatch } from './rollout-batch.ts'

describe('buildRolloutBatch', () => {
  it('lays each completion after its prompt, pads, and masks the completion targets only', () => {
    const b = buildRolloutBatch(
      [
        { promptIds: [5, 6], completions: [[7, 8, 9], [7]], rewards: [1, 0] },
        { promptIds: [4], completions: [[3], [3]], rewards: [0.2, 0.2] },
      ],
      0,
      64,
    )
    expect(b.inputs).toMatchObject({ batch: 4, seqLen: 5 })
    expect([...b.inputs.ids]).toEqual([5, 6, 7, 8, 9, 5, 6, 7, 0, 0, 4, 3, 0, 0, 0, 4, 3, 0, 0, 0])
    expect([...b.targets.slice(0, 5)]).toEqual([6, 7, 8, 9, 0])
    // row 0: positions 1..3 predict 7, 8, 9; row 1: position 1 predicts 7; rows 2–3: position 0 predicts 3
    expect([...b.mask]).toEqual([0, 1, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0])
    expect(b.advantages[0]).toBeGreaterThan(0)
    expect(b.advantages[1]).toBeLessThan(0)
    expect(b.advantages.slice(2)).toEqual([0, 0])
  })

  it('cuts rows at the model context and refuses mismatched groups', () => {
    const b = buildRolloutBatch([{ promptIds: [1, 2], completions: [[3, 4, 5, 6]], rewards: [1] }], 0, 4)
    expect(b.inputs.seqLen).toBe(4)
    expect(() => buildRolloutBatch([{ promptIds: [1], completions: [[2]], rewards: [] }], 0, 8)).toThrow(
      '1 completions and 0 rewards',
    )
  })
})
