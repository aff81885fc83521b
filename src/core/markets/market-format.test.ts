import { describe, expect, it } from 'vitest'
import {
  formatBpsPercent,
  formatDeadline,
  formatFee,
  formatPrice,
  formatProbability,
  formatUntil,
} from './market-format.ts'

const WAD = 10n ** 18n

describe('market formats', () => {
  it('shows probabilities as percentages, rounded down', () => {
    expect(formatProbability(WAD)).toBe('100.00 %')
    expect(formatProbability(0n)).toBe('0.00 %')
    expect(formatProbability((WAD * 3842n) / 10_000n)).toBe('38.42 %')
    expect(formatProbability((WAD * 38429n) / 100_000n)).toBe('38.42 %')
    expect(formatProbability(WAD / 200n, 1)).toBe('0.5 %')
  })

  it('shows prices as token amounts per share', () => {
    expect(formatPrice(617_234n, 6, 'tUSD')).toBe('0.6172 tUSD')
    expect(formatPrice((WAD * 62n) / 100n, 18, 'TST')).toBe('0.62 TST')
    expect(formatPrice(12_345_678n, 6, 'tUSD')).toBe('12.3456 tUSD')
  })

  it('signs basis points and formats fees', () => {
    expect(formatBpsPercent(125)).toBe('+1.25 %')
    expect(formatBpsPercent(-40)).toBe('−0.40 %')
    expect(formatBpsPercent(0)).toBe('0.00 %')
    expect(formatFee(2n * 10n ** 16n)).toBe('2 %')
    expect(formatFee(5n * 10n ** 15n)).toBe('0.5 %')
  })

  it('dates deadlines and says how far they are', () => {
    const t = BigInt(Date.UTC(2026, 11, 30, 1, 23) / 1000)
    expect(formatDeadline(t, 'UTC')).toBe('30 Dec 2026, 01:23')
    const now = Number(t) * 1000
    expect(formatUntil(t + 30n, now)).toBe('in 30 s')
    expect(formatUntil(t + 720n, now)).toBe('in 12 min')
    expect(formatUntil(t + 5n * 3600n, now)).toBe('in 5 h')
    expect(formatUntil(t + 3n * 86_400n, now)).toBe('in 3 d')
    expect(formatUntil(t - 7200n, now)).toBe('2 h ago')
  })
})
