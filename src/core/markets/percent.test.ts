import { describe, expect, it } from 'vitest'
import { parsePercentWad } from './percent.ts'

const WAD = 10n ** 18n

describe('parsePercentWad', () => {
  it('reads a percentage as a WAD fraction and refuses what is not one', () => {
    expect(parsePercentWad('62.5', 'your probability')).toEqual({ ok: true, value: (625n * WAD) / 1000n })
    expect(parsePercentWad('100', 'your probability')).toEqual({ ok: true, value: WAD })
    expect(parsePercentWad('0', 'your probability')).toEqual({ ok: true, value: 0n })
    expect(parsePercentWad('100.01', 'your probability')).toEqual({
      ok: false,
      error: 'Your probability is at most 100 %.',
    })
    expect(parsePercentWad('-3', 'the fee')).toEqual({
      ok: false,
      error: 'Enter the fee as a percentage, e.g. 62.5.',
    })
    expect(parsePercentWad('abc', 'the fee').ok).toBe(false)
  })
})
