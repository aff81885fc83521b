import { describe, expect, it } from 'vitest'
import type { TradeQuote } from './trade-quote.ts'
import { UNLIMITED_ALLOWANCE, approvalNeeded, tradeProblem } from './trade-checks.ts'

const WAD = 10n ** 18n
const quote = (o: Partial<TradeQuote>): TradeQuote => ({
  side: 'buy',
  outcome: 0,
  shares: 10n * WAD,
  tokens: 6_000_000n,
  fee: 100_000n,
  bound: 6_120_000n,
  averagePrice: 600_000n,
  priceBefore: 0n,
  priceAfter: 0n,
  priceImpactBps: 0,
  probabilityBefore: 0n,
  probabilityAfter: 0n,
  payoutIfWins: null,
  ...o,
})
const ctx = {
  status: 0,
  balance: 10_000_000n,
  held: 0n,
  outcomeLabel: 'Yes',
  token: { symbol: 'tUSD', decimals: 6 },
}

describe('tradeProblem', () => {
  it('lets a covered buy and a held sell through', () => {
    expect(tradeProblem(quote({}), ctx)).toBeNull()
    expect(tradeProblem(quote({ side: 'sell' }), { ...ctx, held: 10n * WAD })).toBeNull()
  })

  it('refuses a closed market, a missing wallet, a short balance and an oversell', () => {
    expect(tradeProblem(quote({}), { ...ctx, status: 1 })).toMatch(/not open/)
    expect(tradeProblem(quote({}), { ...ctx, balance: null })).toMatch(/Connect a wallet/)
    expect(tradeProblem(quote({}), { ...ctx, balance: 6_000_000n })).toBe(
      'Not enough tUSD: the trade may cost up to 6.12 tUSD and this wallet holds 6 tUSD. Get test tokens in the Wallet view, or buy fewer shares.',
    )
    expect(tradeProblem(quote({ side: 'sell' }), { ...ctx, held: 4n * WAD })).toBe(
      'You hold 4 shares of “Yes”, fewer than the 10 to sell.',
    )
  })
})

describe('approvalNeeded', () => {
  it('asks for the slippage bound when the allowance is short, never for a sell', () => {
    expect(approvalNeeded(quote({}), 0n)).toBe(6_120_000n)
    expect(approvalNeeded(quote({}), 6_120_000n)).toBeNull()
    expect(approvalNeeded(quote({ side: 'sell' }), 0n)).toBeNull()
  })

  it('asks for an unlimited allowance when told to', () => {
    expect(approvalNeeded(quote({}), 5n, true)).toBe(UNLIMITED_ALLOWANCE)
    expect(approvalNeeded(quote({}), UNLIMITED_ALLOWANCE, true)).toBeNull()
  })
})
