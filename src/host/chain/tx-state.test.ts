import { describe, expect, it } from 'vitest'
import { TX_IDLE, txBusy, txLabel, txReducer, type TxEvent, type TxState } from './tx-state.ts'

const run = (events: TxEvent[], from: TxState = TX_IDLE) => events.reduce(txReducer, from)

describe('txReducer', () => {
  it('walks confirm → signing → pending → confirmed', () => {
    const s = run([
      { type: 'confirm' },
      { type: 'sign' },
      { type: 'sent', hash: '0xaa' },
      { type: 'mined', blockNumber: 7n },
    ])
    expect(s).toEqual({ phase: 'confirmed', hash: '0xaa', blockNumber: 7n })
    expect(txLabel(s)).toBe('Confirmed in block 7')
    expect(txBusy(s)).toBe(false)
  })

  it('can skip the confirmation', () => {
    expect(run([{ type: 'sign' }, { type: 'sent', hash: '0xbb' }])).toEqual({
      phase: 'pending',
      hash: '0xbb',
    })
  })

  it('keeps the hash of a transaction that failed while pending', () => {
    const s = run([{ type: 'sign' }, { type: 'sent', hash: '0xcc' }, { type: 'fail', error: 'reverted' }])
    expect(s).toEqual({ phase: 'failed', error: 'reverted', hash: '0xcc' })
  })

  it('fails before sending without a hash', () => {
    expect(run([{ type: 'confirm' }, { type: 'fail', error: 'declined' }])).toEqual({
      phase: 'failed',
      error: 'declined',
    })
  })

  it('ignores events that do not fit the phase', () => {
    const pending: TxState = { phase: 'pending', hash: '0xdd' }
    expect(txReducer(pending, { type: 'confirm' })).toBe(pending)
    expect(txReducer(pending, { type: 'reset' })).toBe(pending)
    expect(txReducer(pending, { type: 'sent', hash: '0xee' })).toBe(pending)
    const done: TxState = { phase: 'confirmed', hash: '0xdd', blockNumber: 1n }
    expect(txReducer(done, { type: 'fail', error: 'late' })).toBe(done)
    expect(txReducer(done, { type: 'mined', blockNumber: 2n })).toBe(done)
    expect(txReducer(TX_IDLE, { type: 'sent', hash: '0x01' })).toBe(TX_IDLE)
  })

  it('starts again after a finished transaction', () => {
    const failed: TxState = { phase: 'failed', error: 'x' }
    expect(txReducer(failed, { type: 'sign' })).toEqual({ phase: 'signing' })
    expect(txReducer(failed, { type: 'reset' })).toEqual(TX_IDLE)
    expect(txBusy({ phase: 'signing' })).toBe(true)
  })
})
