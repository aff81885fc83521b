import { describe, expect, it } from 'vitest'
import * as dpm from './dpm/dpm.ts'
import { quoteLiquidate, quoteRedeem } from './exit-value.ts'
import * as lmsr from './lmsr/lmsr.ts'
import { dpmSnapshot, lmsrSnapshot } from '../../../test-support/markets/market-snapshot-fixture.ts'
import { MARKET_STATUS } from './market-snapshot.ts'
import { costBasis, portfolioEntry, portfolioTotals, redeemableEntries, type OwnTrade } from './portfolio.ts'

const WAD = 10n ** 18n
const TOKEN = 10n ** 6n

const freshDpm = () =>
  dpm.createDpmMarket({
    outcomeCount: 3,
    k: 10n * WAD,
    tradingFee: 10n ** 16n,
    tokenDecimals: 6,
    initialDeposit: 500n * TOKEN,
  })

/** Buys through the maths and records each buy as the wallet's trade event would. */
function buyAll(m: dpm.DpmMarket, buys: [number, bigint][]): { m: dpm.DpmMarket; trades: OwnTrade[] } {
  const trades: OwnTrade[] = []
  for (const [outcome, shares] of buys) {
    trades.push({ side: 'buy', outcome, shares, tokens: dpm.quoteBuy(m, outcome, shares) })
    m = dpm.buy(m, outcome, shares)
  }
  return { m, trades }
}

describe('costBasis', () => {
  it('adds buys and takes a sell’s proportional share of the cost out, realizing the rest', () => {
    const trades: OwnTrade[] = [
      { side: 'buy', outcome: 1, shares: 10n * WAD, tokens: 600n },
      { side: 'buy', outcome: 1, shares: 30n * WAD, tokens: 2_600n },
      { side: 'sell', outcome: 1, shares: 10n * WAD, tokens: 1_000n },
      { side: 'buy', outcome: 0, shares: 5n * WAD, tokens: 100n },
    ]
    expect(costBasis(trades, 2)).toEqual([
      { shares: 5n * WAD, cost: 100n, realized: 0n },
      // average cost 3200/40 per share: the sell takes 800 out and realizes 1000 − 800
      { shares: 30n * WAD, cost: 2_400n, realized: 200n },
    ])
  })
  it('a sell of more than was bought (shares received by transfer) empties the basis', () => {
    const trades: OwnTrade[] = [
      { side: 'buy', outcome: 0, shares: 2n * WAD, tokens: 50n },
      { side: 'sell', outcome: 0, shares: 3n * WAD, tokens: 80n },
    ]
    expect(costBasis(trades, 1)).toEqual([{ shares: 0n, cost: 0n, realized: 30n }])
  })
})

describe('portfolioEntry', () => {
  it('is null for a market where the wallet holds nothing', () => {
    const m = dpmSnapshot(freshDpm())
    expect(
      portfolioEntry({ market: m, shares: [0n, 0n, 0n], trades: [], marketOwnWinningShares: null }),
    ).toBe(null)
  })

  it('values an open DPM position at the exact sell quote of each held outcome, hiding zero ones', () => {
    const { m, trades } = buyAll(freshDpm(), [
      [0, 20n * WAD],
      [2, 5n * WAD],
    ])
    const shares = [20n * WAD, 0n, 5n * WAD]
    const e = portfolioEntry({ market: dpmSnapshot(m), shares, trades, marketOwnWinningShares: null })!
    expect(e.action).toBeNull()
    expect(e.holdings.map((h) => h.outcome)).toEqual([0, 2])
    expect(e.holdings[0]!.value).toBe(dpm.quoteSell(m, 0, 20n * WAD))
    expect(e.holdings[1]!.value).toBe(dpm.quoteSell(m, 2, 5n * WAD))
    expect(e.holdings.map((h) => h.cost)).toEqual([trades[0]!.tokens, trades[1]!.tokens])
    expect(e.value).toBe(e.holdings[0]!.value! + e.holdings[1]!.value!)
    expect(e.cost).toBe(trades[0]!.tokens + trades[1]!.tokens)
    // buying then selling straight back pays the fee twice: a loss
    expect(e.pnl).toBe(e.value! - e.cost)
    expect(e.pnl!).toBeLessThan(0n)
    expect(e.pnlBps).toBe(Number((e.pnl! * 10_000n) / e.cost))
  })

  it('a later buy by someone else moves the value of an open position', () => {
    const { m, trades } = buyAll(freshDpm(), [[1, 10n * WAD]])
    const shares = [0n, 10n * WAD, 0n]
    const before = portfolioEntry({ market: dpmSnapshot(m), shares, trades, marketOwnWinningShares: null })!
    const after = portfolioEntry({
      market: dpmSnapshot(dpm.buy(m, 1, 40n * WAD)),
      shares,
      trades,
      marketOwnWinningShares: null,
    })!
    expect(after.value!).toBeGreaterThan(before.value!)
    expect(after.pnl!).toBeGreaterThan(0n)
  })

  it('a settled market is worth its redemption; losing outcomes are worth 0', () => {
    const { m, trades } = buyAll(freshDpm(), [
      [0, 20n * WAD],
      [1, 5n * WAD],
    ])
    const settled = dpmSnapshot(m, { status: MARKET_STATUS.settled, winningOutcomeIdx: 0n })
    const input = { market: settled, shares: [20n * WAD, 5n * WAD, 0n], trades }
    const reading = portfolioEntry({ ...input, marketOwnWinningShares: null })!
    expect(reading.holdings[0]!.unvalued).toEqual({ reason: 'reading' })
    expect(reading.value).toBeNull()
    const own = m.creatorSharesPerOutcome
    const e = portfolioEntry({ ...input, marketOwnWinningShares: own })!
    const expected = quoteRedeem(settled, input.shares, own)
    expect(expected.ok).toBe(true)
    expect(e.action).toBe('redeem')
    expect(e.exit).toEqual(expected)
    expect(e.holdings.map((h) => h.value)).toEqual([expected.ok ? expected.tokensOut : -1n, 0n])
    expect(e.value).toBe(expected.ok ? expected.tokensOut : -1n)
    expect(redeemableEntries([e])).toEqual([e])
  })

  it('a settled market where only losing outcomes are held is worth 0 and is not redeemable', () => {
    const { m, trades } = buyAll(freshDpm(), [[1, 5n * WAD]])
    const settled = dpmSnapshot(m, { status: MARKET_STATUS.settled, winningOutcomeIdx: 0n })
    const e = portfolioEntry({
      market: settled,
      shares: [0n, 5n * WAD, 0n],
      trades,
      marketOwnWinningShares: 0n,
    })!
    expect(e.exit).toBeNull()
    expect(e.value).toBe(0n)
    expect(e.pnl).toBe(-trades[0]!.tokens)
    expect(redeemableEntries([e])).toEqual([])
  })

  it('an expired market is worth its liquidation at frozen prices, each outcome valued alone', () => {
    const { m, trades } = buyAll(freshDpm(), [
      [0, 7n * WAD],
      [2, 9n * WAD],
    ])
    const expired = dpmSnapshot(m, { status: MARKET_STATUS.expired })
    const shares = [7n * WAD, 0n, 9n * WAD]
    const e = portfolioEntry({ market: expired, shares, trades, marketOwnWinningShares: null })!
    const whole = quoteLiquidate(expired, shares)
    expect(e.action).toBe('liquidate')
    expect(e.value).toBe(whole.ok ? whole.tokensOut : -1n)
    expect(e.holdings[0]!.value).toBe(dpm.liquidationValue(m, [7n * WAD, 0n, 0n]))
    expect(e.holdings[1]!.value).toBe(dpm.liquidationValue(m, [0n, 0n, 9n * WAD]))
    expect(redeemableEntries([e])).toEqual([])
  })

  it('awaiting settlement: no value, no P&L', () => {
    const { m, trades } = buyAll(freshDpm(), [[0, 3n * WAD]])
    const e = portfolioEntry({
      market: dpmSnapshot(m, { status: MARKET_STATUS.awaitingSettlement }),
      shares: [3n * WAD, 0n, 0n],
      trades,
      marketOwnWinningShares: null,
    })!
    expect(e.holdings[0]!.unvalued).toEqual({ reason: 'awaiting-settlement' })
    expect(e.value).toBeNull()
    expect(e.pnl).toBeNull()
    expect(e.pnlBps).toBeNull()
  })

  it('values an open LMSR position at its sell quote; a settled one pays a token per winning share', () => {
    let m = lmsr.createLmsrMarket({
      outcomeCount: 2,
      b: 100n * WAD,
      tradingFee: 10n ** 16n,
      tokenDecimals: 6,
    })
    const cost = lmsr.quoteBuy(m, 1, 30n * WAD)
    m = lmsr.buy(m, 1, 30n * WAD)
    const trades: OwnTrade[] = [{ side: 'buy', outcome: 1, shares: 30n * WAD, tokens: cost }]
    const shares = [0n, 30n * WAD]
    const open = portfolioEntry({ market: lmsrSnapshot(m), shares, trades, marketOwnWinningShares: null })!
    expect(open.value).toBe(lmsr.quoteSell(m, 1, 30n * WAD))
    const won = portfolioEntry({
      market: lmsrSnapshot(m, { status: MARKET_STATUS.settled, winningOutcomeIdx: 1n }),
      shares,
      trades,
      marketOwnWinningShares: null, // LMSR redemption needs no read
    })!
    expect(won.value).toBe(30n * TOKEN)
    expect(won.pnl).toBe(30n * TOKEN - cost)
  })
})

describe('portfolioTotals', () => {
  it('sums value, cost and P&L of the valued entries and counts the others', () => {
    const { m, trades } = buyAll(freshDpm(), [[0, 4n * WAD]])
    const shares = [4n * WAD, 0n, 0n]
    const open = portfolioEntry({ market: dpmSnapshot(m), shares, trades, marketOwnWinningShares: null })!
    const waiting = portfolioEntry({
      market: dpmSnapshot(m, { status: MARKET_STATUS.awaitingSettlement }),
      shares,
      trades,
      marketOwnWinningShares: null,
    })!
    const t = portfolioTotals([open, waiting, open])
    expect(t.value).toBe(2n * open.value!)
    expect(t.cost).toBe(2n * open.cost)
    expect(t.pnl).toBe(2n * open.pnl!)
    expect(t.pnlBps).toBe(open.pnlBps)
    expect(t.unvalued).toBe(1)
  })
})
