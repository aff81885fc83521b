import { describe, expect, it } from 'vitest'
import {
  answerConfirmation,
  answerConfirmationsOf,
  currentConfirmation,
  requestConfirmation,
  confirmStore,
} from './confirm-store.ts'

describe('confirm store', () => {
  it('asks one question at a time and resolves each with its answer', async () => {
    const first = requestConfirmation({ title: 'Buy YES', details: [{ label: 'Cost', value: '10 USDC' }] })
    const second = requestConfirmation({ title: 'Sell NO', details: [] })
    const shown = currentConfirmation(confirmStore.getState())
    expect(shown?.title).toBe('Buy YES')
    answerConfirmation(shown!.id, true)
    await expect(first).resolves.toBe(true)
    const next = currentConfirmation(confirmStore.getState())
    expect(next?.title).toBe('Sell NO')
    answerConfirmation(next!.id, false)
    await expect(second).resolves.toBe(false)
    expect(currentConfirmation(confirmStore.getState())).toBeNull()
  })

  it('answers every waiting question of a kind at once, leaving the others in line', async () => {
    const swarmA = requestConfirmation({ title: 'Submit rewards', details: [], kind: 'swarm' })
    const trade = requestConfirmation({ title: 'Buy YES', details: [], kind: 'trade' })
    const swarmB = requestConfirmation({ title: 'Submit winners', details: [], kind: 'swarm' })
    answerConfirmationsOf('swarm', true)
    await expect(swarmA).resolves.toBe(true)
    await expect(swarmB).resolves.toBe(true)
    const left = currentConfirmation(confirmStore.getState())
    expect(left?.title).toBe('Buy YES')
    answerConfirmation(left!.id, false)
    await expect(trade).resolves.toBe(false)
  })

  it('ignores an answer to a question that is gone', () => {
    answerConfirmation(12345, true)
    expect(confirmStore.getState().queue).toEqual([])
  })
})
