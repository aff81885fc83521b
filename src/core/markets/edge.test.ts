import { describe, expect, it } from 'vitest'
import * as dpm from './dpm/dpm.ts'
import { EDGE_SHARE_STEP, completeBeliefs, edgeRows } from './edge.ts'
import * as lmsr from './lmsr/lmsr.ts'
import { dpmSnapshot, lmsrSnapshot } from '../../../test-support/markets/market-snapshot-fixture.ts'
import { quoteTrade } from './trade-quote.ts'

const WAD = 10n ** 18n
const pct = (p: number) => (BigInt(Math.round(p * 100)) * WAD) / 10_000n

/** A Yes / No DPM market after a buy of 20 Yes. */
const traded = () =>
  dpm.buy(
    dpm.createDpmMarket({
      outcomeCount: 2,
      k: 10n * WAD,
      tradingFee: 2n * 10n ** 16n,
      tokenDecimals: 6,
      initialDeposit: 1_000n * 10n ** 6n,
    }),
    0,
    20n * WAD,
  )
const market = () => dpmSnapshot(traded())

describe('edgeRows', () => {
  it('buys the underpriced outcome up to, never past, your probability — the largest such step', () => {
    const s = market()
    const implied = s.probabilities[0]!
    const yours = implied + pct(10)
    const [row] = edgeRows(s, [yours, WAD - yours], [0n, 0n])
    expect(row!.implied).toBe(implied)
    expect(row!.edge).toBe(pct(10))
    const move = row!.move!
    expect(move.side).toBe('buy')
    expect(move.shares % EDGE_SHARE_STEP).toBe(0n)
    expect(move.probabilityAfter).toBeLessThanOrEqual(yours)
    // one step more would pass your probability
    const more = quoteTrade(s, {
      side: 'buy',
      outcome: 0,
      shares: move.shares + EDGE_SHARE_STEP,
      slippageBps: 0,
    })
    expect(more.ok && more.quote.probabilityAfter).toBeGreaterThan(yours)
    // the move is the trade panel's quote for the same shares, to the unit
    const same = quoteTrade(s, { side: 'buy', outcome: 0, shares: move.shares, slippageBps: 0 })
    expect(same.ok && same.quote.tokens).toBe(move.tokens)
    expect(same.ok && same.quote.probabilityAfter).toBe(move.probabilityAfter)
    expect(move.payoutIfWins).toBe(same.ok ? same.quote.payoutIfWins : -1n)
    expect(move.expectedProfit).toBe((move.payoutIfWins! * yours) / WAD - move.tokens)
  })

  it('sells only what is held of an overpriced outcome, and suggests nothing when nothing is held', () => {
    const s = market()
    const yours = s.probabilities[0]! - pct(20)
    const none = edgeRows(s, [yours, WAD - yours], [0n, 0n])
    expect(none[0]!.edge).toBeLessThan(0n)
    expect(none[0]!.move).toBeNull()
    const held = 3n * WAD
    const [row] = edgeRows(s, [yours, WAD - yours], [held, 0n])
    // 3 shares are not enough to bring it down 20 points: sell them all
    expect(row!.move).toMatchObject({ side: 'sell', shares: held, payoutIfWins: null, expectedProfit: null })
    expect(row!.move!.probabilityAfter).toBeGreaterThanOrEqual(yours)
    expect(row!.move!.tokens).toBe(dpm.quoteSell(traded(), 0, held))
  })

  it('no edge, no move; an LMSR market moves its price to yours', () => {
    const s = market()
    expect(edgeRows(s, s.probabilities, [0n, 0n]).map((r) => r.move)).toEqual([null, null])
    const l = lmsrSnapshot(
      lmsr.createLmsrMarket({ outcomeCount: 3, b: 100n * WAD, tradingFee: 0n, tokenDecimals: 6 }),
    )
    const rows = edgeRows(l, [pct(50), pct(25), pct(25)], [0n, 0n, 0n])
    expect(rows[0]!.move!.side).toBe('buy')
    expect(rows[0]!.move!.probabilityAfter).toBeLessThanOrEqual(pct(50))
    // within a step of 50 %: a 100-b market moves about 0.0002 % per 0.0001 share
    expect(pct(50) - rows[0]!.move!.probabilityAfter).toBeLessThan(10n ** 13n)
    expect(rows[1]!.move).toBeNull() // overpriced, nothing held
  })
})

describe('completeBeliefs', () => {
  it('fills the blank outcomes with what the typed ones leave, in proportion to their implied odds', () => {
    expect(completeBeliefs([pct(60), pct(40)], [null, pct(70)])).toEqual([pct(30), pct(70)])
    expect(completeBeliefs([pct(50), pct(30), pct(20)], [pct(50), null, null])).toEqual([
      pct(50),
      pct(30),
      pct(20),
    ])
    expect(completeBeliefs([pct(50), pct(30), pct(20)], [pct(90), null, null])).toEqual([
      pct(90),
      pct(6),
      pct(4),
    ])
    // typed past 100 %: nothing is left for the blanks
    expect(completeBeliefs([pct(50), pct(50)], [pct(120), null])).toEqual([pct(120), 0n])
    expect(completeBeliefs([pct(50), pct(50)], [null, null])).toEqual([pct(50), pct(50)])
  })
})
