import { describe, expect, it } from 'vitest'
import * as dpm from './dpm/dpm.ts'
import { exitActionOf, heldOutcomes, quoteLiquidate, quoteRedeem } from './exit-value.ts'
import * as lmsr from './lmsr/lmsr.ts'
import { dpmSnapshot, lmsrSnapshot } from '../../../test-support/markets/market-snapshot-fixture.ts'
import { MARKET_STATUS } from './market-snapshot.ts'

const WAD = 10n ** 18n
const SHARE = WAD

/** A DPM market where a trader bought 30 Yes and 10 No shares and someone else 20 Yes. */
function tradedDpm(): dpm.DpmMarket {
  let m = dpm.createDpmMarket({
    outcomeCount: 2,
    k: WAD,
    tradingFee: 10n ** 16n,
    tokenDecimals: 6,
    initialDeposit: 100n * 10n ** 6n,
  })
  m = dpm.buy(m, 0, 30n * SHARE)
  m = dpm.buy(m, 1, 10n * SHARE)
  return dpm.buy(m, 0, 20n * SHARE)
}

describe('exitActionOf', () => {
  it('redeems settled markets, liquidates expired and failed ones, and does nothing otherwise', () => {
    expect(exitActionOf(MARKET_STATUS.settled)).toBe('redeem')
    expect(exitActionOf(MARKET_STATUS.expired)).toBe('liquidate')
    expect(exitActionOf(MARKET_STATUS.failed)).toBe('liquidate')
    expect(exitActionOf(MARKET_STATUS.open)).toBeNull()
    expect(exitActionOf(MARKET_STATUS.awaitingSettlement)).toBeNull()
  })
})

describe('heldOutcomes', () => {
  it('lists the outcomes with shares, skipping zeros', () => {
    expect(heldOutcomes([0n, 5n, 0n, 1n])).toEqual([1, 3])
    expect(heldOutcomes([0n, 0n])).toEqual([])
  })
})

describe('quoteRedeem (DPM)', () => {
  const m = tradedDpm()
  const s = dpm.settle(m, 0)
  // the chain after settlement: pool net of the creator reward, the creator's shares held by the market
  const settled = (pool: bigint) =>
    dpmSnapshot(m, { status: MARKET_STATUS.settled, pool, winningOutcomeIdx: 0n })

  it('pays pool·shares/unclaimed, and the last redeemer the whole remaining pool', () => {
    const first = quoteRedeem(settled(s.pool), [30n * SHARE, 10n * SHARE], m.creatorSharesPerOutcome)
    const expected = (s.pool * 30n) / 50n
    expect(first).toEqual({
      ok: true,
      action: 'redeem',
      outcomes: [0],
      sharesIn: [30n * SHARE],
      tokensOut: expected,
    })
    // after that redemption its 30 shares sit with the market; the other holder takes the rest
    const rest = s.pool - expected
    const last = quoteRedeem(settled(rest), [20n * SHARE, 0n], m.creatorSharesPerOutcome + 30n * SHARE)
    expect(last.ok && last.tokensOut).toBe(rest)
  })

  it('names the revert when the wallet holds no winning shares', () => {
    expect(quoteRedeem(settled(s.pool), [0n, 10n * SHARE], m.creatorSharesPerOutcome)).toEqual({
      ok: false,
      action: 'redeem',
      errorName: 'RedeemZeroShares',
      args: [],
    })
  })
})

describe('quoteRedeem (LMSR)', () => {
  it('pays one token per winning share, rounded down to base units', () => {
    let l = lmsr.createLmsrMarket({
      outcomeCount: 2,
      b: 100n * WAD,
      tradingFee: 10n ** 16n,
      tokenDecimals: 6,
    })
    l = lmsr.buy(l, 1, 7n * SHARE + 5n)
    const snap = lmsrSnapshot(l, { status: MARKET_STATUS.settled, winningOutcomeIdx: 1n })
    const q = quoteRedeem(snap, [0n, 7n * SHARE + 5n], 0n)
    expect(q.ok && q.tokensOut).toBe(7_000_000n)
    expect(quoteRedeem(snap, [0n, 10n ** 11n], 0n)).toMatchObject({
      ok: false,
      errorName: 'RedeemZeroTokensOut',
    })
  })
})

describe('quoteLiquidate', () => {
  it('values every held outcome at the frozen prices, as the gateway does', () => {
    const m = tradedDpm()
    const snap = dpmSnapshot(m, { status: MARKET_STATUS.expired })
    const holding = [30n * SHARE, 10n * SHARE]
    const q = quoteLiquidate(snap, holding)
    expect(q).toEqual({
      ok: true,
      action: 'liquidate',
      outcomes: [0, 1],
      sharesIn: holding,
      tokensOut: dpm.liquidationValue(m, holding),
    })
    expect(q.ok && q.tokensOut).toBeGreaterThan(0n)
    // only the held outcome is listed (a zero one would revert with ZeroSharesIn)
    expect(quoteLiquidate(snap, [0n, 10n * SHARE])).toMatchObject({ ok: true, outcomes: [1] })
  })

  it('names the revert when nothing is held', () => {
    const snap = dpmSnapshot(tradedDpm(), { status: MARKET_STATUS.failed })
    expect(quoteLiquidate(snap, [0n, 0n])).toEqual({
      ok: false,
      action: 'liquidate',
      errorName: 'EmptyOutcomeIndices',
      args: [],
    })
  })
})
