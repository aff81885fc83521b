import { describe, expect, it } from 'vitest'
import { STATUS_FILTERS, statusLabel } from './market-status.ts'

describe('statusLabel', () => {
  it('names every Delphi status and an unknown code', () => {
    expect([0, 1, 2, 3, 4].map((s) => statusLabel(s).label)).toEqual([
      'Open',
      'Awaiting settlement',
      'Settled',
      'Expired',
      'Failed',
    ])
    expect(statusLabel(9)).toEqual({ label: 'Status 9', tone: 'muted' })
    expect(STATUS_FILTERS.map((f) => f.value)).toEqual(['all', 0, 1, 2, 3, 4])
  })
})
