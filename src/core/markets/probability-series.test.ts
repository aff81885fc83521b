import { describe, expect, it } from 'vitest'
import * as dpm from './dpm/dpm.ts'
import * as lmsr from './lmsr/lmsr.ts'
import { dpmSnapshot, lmsrSnapshot } from '../../../test-support/markets/market-snapshot-fixture.ts'
import { probabilitySeries, type SeriesTrade } from './probability-series.ts'

const WAD = 10n ** 18n

const DEPOSIT = 1_000n * 10n ** 6n
const created = () =>
  dpm.createDpmMarket({
    outcomeCount: 2,
    k: 10n * WAD,
    tradingFee: 2n * 10n ** 16n,
    tokenDecimals: 6,
    initialDeposit: DEPOSIT,
  })

/** Trades at blocks 5, 6, 6 (two in one block), 9. */
const TRADES: SeriesTrade[] = [
  { side: 'buy', outcome: 0, shares: 20n * WAD, blockNumber: 5n, logIndex: 0 },
  { side: 'buy', outcome: 1, shares: 50n * WAD, blockNumber: 6n, logIndex: 1 },
  { side: 'sell', outcome: 0, shares: 5n * WAD, blockNumber: 6n, logIndex: 4 },
  { side: 'buy', outcome: 0, shares: 3n * WAD, blockNumber: 9n, logIndex: 0 },
]

function applyDpm(trades: readonly SeriesTrade[]): dpm.DpmMarket[] {
  const states = [created()]
  for (const t of trades) {
    const m = states[states.length - 1]!
    states.push(t.side === 'buy' ? dpm.buy(m, t.outcome, t.shares) : dpm.sell(m, t.outcome, t.shares))
  }
  return states
}

describe('probabilitySeries', () => {
  it('gives the creation point and one point per trade, each the maths’ probabilities at that state', () => {
    const states = applyDpm(TRADES)
    const snap = dpmSnapshot(states.at(-1)!, { createdBlock: 3n })
    // given out of order: the series sorts by block and log index
    const s = probabilitySeries(snap, [TRADES[2]!, TRADES[0]!, TRADES[3]!, TRADES[1]!])
    expect(s.complete).toBe(true)
    expect(s.points.map((p) => p.blockNumber)).toEqual([3n, 5n, 6n, 6n, 9n])
    expect(s.points.map((p) => p.probabilities)).toEqual(states.map((m) => dpm.impliedProbabilities(m)))
    expect(s.points[0]!.probabilities).toEqual([WAD / 2n, WAD / 2n])
    // the last point is the chain's figure, to the unit
    expect(s.points.at(-1)!.probabilities).toEqual(snap.probabilities)
  })

  it('is incomplete when a trade is missing', () => {
    const snap = dpmSnapshot(applyDpm(TRADES).at(-1)!)
    expect(probabilitySeries(snap, TRADES.slice(1)).complete).toBe(false)
    // a sell the replay cannot apply (more than the supply it knows) stops the series there
    const s = probabilitySeries(snap, [
      { side: 'sell', outcome: 1, shares: 10_000n * WAD, blockNumber: 4n, logIndex: 0 },
    ])
    expect(s.complete).toBe(false)
    expect(s.points).toHaveLength(1)
  })

  it('replays an LMSR market, whose probabilities are its prices', () => {
    let m = lmsr.createLmsrMarket({
      outcomeCount: 3,
      b: 50n * WAD,
      tradingFee: 10n ** 16n,
      tokenDecimals: 18,
    })
    const trades: SeriesTrade[] = [
      { side: 'buy', outcome: 2, shares: 40n * WAD, blockNumber: 2n, logIndex: 0 },
      { side: 'sell', outcome: 2, shares: 10n * WAD, blockNumber: 3n, logIndex: 0 },
    ]
    const expected = [lmsr.prices(m)]
    m = lmsr.buy(m, 2, 40n * WAD)
    expected.push(lmsr.prices(m))
    m = lmsr.sell(m, 2, 10n * WAD)
    expected.push(lmsr.prices(m))
    const s = probabilitySeries(lmsrSnapshot(m), trades)
    expect(s.complete).toBe(true)
    expect(s.points.map((p) => p.probabilities)).toEqual(expected)
  })
})
