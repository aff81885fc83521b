import { describe, expect, it } from 'vitest'
import type { NetSample } from '../host/stores/net-store.ts'
import { currentRates, messageRateSeries } from './net-rates.ts'

const sample = (t: number, messagesIn: number, messagesOut = 0, bytesIn = 0): NetSample => ({
  t,
  messagesIn,
  messagesOut,
  bytesIn,
  bytesOut: 0,
  rejected: 0,
})

describe('net rates', () => {
  it('needs two samples', () => {
    expect(currentRates([])).toBeNull()
    expect(currentRates([sample(0, 5)])).toBeNull()
  })
  it('divides the last difference by the elapsed seconds', () => {
    const r = currentRates([sample(0, 0), sample(1000, 10, 2, 100), sample(3000, 30, 6, 1100)])
    expect(r).toMatchObject({ messagesIn: 10, messagesOut: 2, bytesIn: 500 })
  })
  it('never goes negative when counters reset, and ignores out-of-order samples', () => {
    expect(currentRates([sample(0, 50), sample(1000, 0)])!.messagesIn).toBe(0)
    expect(currentRates([sample(1000, 0), sample(1000, 5)])).toBeNull()
  })
  it('builds the per-second series', () => {
    expect(messageRateSeries([sample(0, 0, 0), sample(1000, 3, 1), sample(2000, 4, 3)])).toEqual({
      in: [3, 1],
      out: [1, 2],
    })
  })
})
