import { describe, expect, it } from 'vitest'
import { formatShares, parseDecimalAmount, sharesInputText } from './share-amount.ts'

const WAD = 10n ** 18n

describe('share amounts', () => {
  it('parses decimal text exactly', () => {
    expect(parseDecimalAmount('12.5')).toEqual({ ok: true, value: 125n * 10n ** 17n })
    expect(parseDecimalAmount(' 1,000 ')).toEqual({ ok: true, value: 1000n * WAD })
    expect(parseDecimalAmount('.5')).toEqual({ ok: true, value: WAD / 2n })
    expect(parseDecimalAmount('0.000000000000000001')).toEqual({ ok: true, value: 1n })
  })

  it('says what is wrong with text that is not an amount', () => {
    for (const bad of ['', '-1', '1e5', 'abc', '.', '1.2.3'])
      expect(parseDecimalAmount(bad).ok, bad).toBe(false)
    expect(parseDecimalAmount('0.0000000000000000001')).toEqual({
      ok: false,
      error: 'At most 18 digits after the dot.',
    })
  })

  it('formats and round-trips', () => {
    expect(formatShares(1234n * WAD + WAD / 4n)).toBe('1,234.25')
    expect(formatShares(1n)).toBe('<0.0001')
    expect(formatShares(0n)).toBe('0')
    for (const v of [0n, 1n, 125n * 10n ** 17n, 7n * WAD + 3n]) {
      const back = parseDecimalAmount(sharesInputText(v))
      expect(back).toEqual({ ok: true, value: v })
    }
  })
})
