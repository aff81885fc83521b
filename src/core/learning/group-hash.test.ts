import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../protocol/digest.ts'
import { rolloutGroupHash } from './group-hash.ts'

const TASK = 'ab'.repeat(32)

describe('rolloutGroupHash', () => {
  it('is SHA-256 of the JCS text {completions, taskId}, keys sorted, no whitespace', () => {
    const group = { taskId: TASK, completions: [{ tokenIds: [5, 6] }, { tokenIds: [] }] }
    const text = `{"completions":[[5,6],[]],"taskId":"${TASK}"}`
    expect(rolloutGroupHash(group)).toBe(sha256Hex(new TextEncoder().encode(text)))
    expect(rolloutGroupHash(group)).toMatch(/^[0-9a-f]{64}$/)
  })

  it('ignores what does not change the training (text, rewards) and sees every token and the order', () => {
    const base = { taskId: TASK, completions: [{ tokenIds: [1, 2] }, { tokenIds: [3] }] }
    const withExtras = {
      taskId: TASK,
      completions: [
        { tokenIds: [1, 2], text: 'x' },
        { tokenIds: [3], text: 'y' },
      ],
      rewards: [1, 0],
    }
    expect(rolloutGroupHash(withExtras)).toBe(rolloutGroupHash(base))
    const changed = [
      { taskId: TASK, completions: [{ tokenIds: [1, 2] }, { tokenIds: [4] }] },
      { taskId: TASK, completions: [{ tokenIds: [3] }, { tokenIds: [1, 2] }] },
      { taskId: TASK, completions: [{ tokenIds: [1] }, { tokenIds: [2, 3] }] },
      { taskId: 'cd'.repeat(32), completions: base.completions },
    ]
    for (const g of changed) expect(rolloutGroupHash(g)).not.toBe(rolloutGroupHash(base))
  })
})
