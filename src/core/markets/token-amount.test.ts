import { describe, expect, it } from 'vitest'
import { formatEth, formatTokenAmount } from './token-amount.ts'

describe('formatTokenAmount', () => {
  it('shows whole and fractional units with grouping', () => {
    expect(formatTokenAmount(1_234_567_890_000n, 6)).toBe('1,234,567.89')
    expect(formatTokenAmount(1_500_000n, 6, { symbol: 'USDC' })).toBe('1.5 USDC')
    expect(formatTokenAmount(1_000_000n, 6)).toBe('1')
    expect(formatTokenAmount(0n, 6)).toBe('0')
  })

  it('rounds down, never up', () => {
    expect(formatTokenAmount(1_999_999n, 6, { maxFractionDigits: 2 })).toBe('1.99')
    expect(formatTokenAmount(999n, 3, { maxFractionDigits: 0 })).toBe('<1')
  })

  it('says a dust balance is not zero', () => {
    expect(formatTokenAmount(1n, 18)).toBe('<0.0001')
    expect(formatTokenAmount(1n, 6, { maxFractionDigits: 2 })).toBe('<0.01')
  })

  it('keeps the sign of a negative amount', () => {
    expect(formatTokenAmount(-2_500_000n, 6)).toBe('-2.5')
  })

  it('handles tokens with no decimals', () => {
    expect(formatTokenAmount(12345n, 0)).toBe('12,345')
  })

  it('formats ETH with 4 digits', () => {
    expect(formatEth(10n ** 18n * 100n + 123_456_789_000_000_000n)).toBe('100.1234 ETH')
  })
})
