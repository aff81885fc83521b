import { describe, expect, it } from 'vitest'
import {
  answerConfirmation,
  currentConfirmation,
  requestConfirmation,
  useConfirmStore,
} from './confirm-store.ts'

describe('confirm store', () => {
  it('asks one question at a time and resolves each with its answer', async () => {
    const first = requestConfirmation({ title: 'Buy YES', details: [{ label: 'Cost', value: '10 USDC' }] })
    const second = requestConfirmation({ title: 'Sell NO', details: [] })
    const shown = currentConfirmation(useConfirmStore.getState())
    expect(shown?.title).toBe('Buy YES')
    answerConfirmation(shown!.id, true)
    await expect(first).resolves.toBe(true)
    const next = currentConfirmation(useConfirmStore.getState())
    expect(next?.title).toBe('Sell NO')
    answerConfirmation(next!.id, false)
    await expect(second).resolves.toBe(false)
    expect(currentConfirmation(useConfirmStore.getState())).toBeNull()
  })

  it('ignores an answer to a question that is gone', () => {
    answerConfirmation(12345, true)
    expect(useConfirmStore.getState().queue).toEqual([])
  })
})
