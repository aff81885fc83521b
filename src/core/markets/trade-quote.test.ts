import { describe, expect, it } from 'vitest'
import * as dpm from './dpm/dpm.ts'
import * as lmsr from './lmsr/lmsr.ts'
import { dpmSnapshot, lmsrSnapshot } from '../../../test-support/markets/market-snapshot-fixture.ts'
import { mathsMarket, mathsProbabilities, mathsSpotPrices } from './market-maths.ts'
import { quoteTrade, slippageProblem } from './trade-quote.ts'

const WAD = 10n ** 18n
const market = dpm.buy(
  dpm.createDpmMarket({
    outcomeCount: 2,
    k: 10n * WAD,
    tradingFee: 2n * 10n ** 16n,
    tokenDecimals: 6,
    initialDeposit: 1_000_000_000n,
  }),
  0,
  20n * WAD,
)
const snap = dpmSnapshot(market)

describe('mathsMarket', () => {
  it('gives back the prices and probabilities the chain reported for the same state', () => {
    const m = mathsMarket(snap)
    expect(mathsSpotPrices(m)).toEqual(snap.spotPrices)
    expect(mathsProbabilities(m)).toEqual(snap.probabilities)
    const l = lmsr.buy(
      lmsr.createLmsrMarket({ outcomeCount: 2, b: 100n * WAD, tradingFee: 10n ** 16n, tokenDecimals: 6 }),
      1,
      30n * WAD,
    )
    const ls = lmsrSnapshot(l)
    expect(mathsSpotPrices(mathsMarket(ls))).toEqual(ls.spotPrices)
  })
})

describe('quoteTrade', () => {
  it('quotes a buy exactly as the DPM maths, with the slippage bound, impact and payout', () => {
    const shares = 5n * WAD
    const r = quoteTrade(snap, { side: 'buy', outcome: 1, shares, slippageBps: 200 })
    if (!r.ok) throw new Error(r.errorName)
    const d = dpm.quoteBuyDetailed(market, 1, shares)
    expect(r.quote.tokens).toBe(d.tokensIn)
    expect(r.quote.fee).toBe(d.fee)
    expect(r.quote.bound).toBe(dpm.maxTokensInWithSlippage(d.tokensIn, 200n))
    expect(r.quote.averagePrice).toBe((d.tokensIn * WAD) / shares)
    const after = dpm.buy(market, 1, shares)
    expect(r.quote.priceAfter).toBe(dpm.spotPrice(after, 1))
    expect(r.quote.probabilityAfter).toBe(dpm.impliedProbability(after, 1))
    expect(r.quote.priceImpactBps).toBeGreaterThan(0)
    expect(r.quote.payoutIfWins).toBe(dpm.payoutIfWins(after, 1, shares))
  })

  it('quotes a sell with a minimum out and a falling price', () => {
    const r = quoteTrade(snap, { side: 'sell', outcome: 0, shares: 3n * WAD, slippageBps: 100 })
    if (!r.ok) throw new Error(r.errorName)
    expect(r.quote.tokens).toBe(dpm.quoteSell(market, 0, 3n * WAD))
    expect(r.quote.bound).toBe(dpm.minTokensOutWithSlippage(r.quote.tokens, 100n))
    expect(r.quote.priceImpactBps).toBeLessThan(0)
    expect(r.quote.payoutIfWins).toBeNull()
  })

  it('quotes LMSR markets with their maths', () => {
    const l = lmsr.createLmsrMarket({
      outcomeCount: 3,
      b: 50n * WAD,
      tradingFee: 10n ** 16n,
      tokenDecimals: 6,
    })
    const r = quoteTrade(lmsrSnapshot(l), { side: 'buy', outcome: 2, shares: 10n * WAD, slippageBps: 0 })
    if (!r.ok) throw new Error(r.errorName)
    expect(r.quote.tokens).toBe(lmsr.quoteBuy(l, 2, 10n * WAD))
    expect(r.quote.bound).toBe(r.quote.tokens)
    expect(r.quote.payoutIfWins).toBe(10_000_000n) // one token per winning share
  })

  it('returns the gateway error of a trade it would refuse', () => {
    expect(quoteTrade(snap, { side: 'buy', outcome: 0, shares: 10n, slippageBps: 200 })).toEqual({
      ok: false,
      errorName: 'SharesOutBelowMinDelta',
      args: [10n, 10n ** 6n],
    })
    const tooMany = quoteTrade(snap, { side: 'sell', outcome: 0, shares: 10n ** 30n, slippageBps: 200 })
    expect(tooMany.ok === false && tooMany.errorName).toBe('SharesInExceedSupply')
  })

  it('accepts whole basis points from 0 to 5000 only', () => {
    expect(slippageProblem(0)).toBeNull()
    expect(slippageProblem(200)).toBeNull()
    expect(slippageProblem(-1)).toMatch(/basis points/)
    expect(slippageProblem(1.5)).toMatch(/basis points/)
    expect(slippageProblem(5001)).toMatch(/basis points/)
  })
})
