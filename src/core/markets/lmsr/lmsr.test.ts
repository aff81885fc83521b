import { describe, expect, it } from 'vitest'
import { MarketMathError } from '../errors.ts'
import { WAD } from '../fixed-point.ts'
import {
  buy,
  buyExactOut,
  createLmsrMarket,
  creatorLiquidationValue,
  creatorSettlementValue,
  liquidate,
  outcomeExp,
  payoutIfWins,
  prices,
  quoteBuy,
  quoteBuyDetailed,
  quoteSell,
  quoteSellDetailed,
  sell,
  sellExactIn,
  type LmsrMarket,
} from './lmsr.ts'
import { Rng } from '../../../../test-support/markets/test-rng.ts'
import { errorName } from '../../../../test-support/markets/test-helpers.ts'

const E18 = 10n ** 18n
const scalerOf = (m: LmsrMarket): bigint => 10n ** BigInt(18 - m.tokenDecimals)

/** Float LMSR cost b·ln Σ e^{q/b}, in whole tokens (log-sum-exp with the max factored out). */
function floatCost(b: number, qs: number[]): number {
  const mx = Math.max(...qs)
  return mx + b * Math.log(qs.reduce((a, q) => a + Math.exp((q - mx) / b), 0))
}

describe('LMSR against a float reference', () => {
  it('creation funds b·ln n and quotes match b·Δln Σe^{q/b} within 1e-9 relative + 1 base unit', () => {
    const rng = new Rng(11)
    for (let t = 0; t < 200; t++) {
      const n = rng.int(2, 20)
      const m0 = createLmsrMarket({
        outcomeCount: n,
        b: rng.logBig(WAD, 5_000_000n * WAD),
        tradingFee: 0n,
        tokenDecimals: rng.pick([6, 18]),
      })
      const unit = 10 ** m0.tokenDecimals
      const b = Number(m0.b) / 1e18
      expect(Math.abs(Number(m0.initialPool) / unit - b * Math.log(n))).toBeLessThan(
        b * Math.log(n) * 1e-12 + 2 / unit,
      )
      let m = m0
      for (let k = 0; k < 4; k++) {
        const i = rng.int(0, n - 1)
        const shares = rng.logBig(10n ** 6n, m.b * 20n)
        let got: bigint
        try {
          got = quoteBuy(m, i, shares)
        } catch (e) {
          expect(['TokensInBelowMin', 'ExpInputTooBig']).toContain((e as Error).name)
          continue
        }
        const qs = m.supplies.map((q) => Number(q) / 1e18)
        const after = qs.map((q, j) => (j === i ? q + Number(shares) / 1e18 : q))
        const want = floatCost(b, after) - floatCost(b, qs)
        expect(Math.abs(Number(got) / unit - want)).toBeLessThanOrEqual(want * 1e-9 + 1 / unit)
        m = buy(m, i, shares)
        const ps = prices(m)
        const mx = Math.max(...after)
        const z = after.reduce((a, q) => a + Math.exp((q - mx) / b), 0)
        ps.forEach((p, j) =>
          expect(Math.abs(Number(p) / 1e18 - Math.exp(((after[j] as number) - mx) / b) / z)).toBeLessThan(
            1e-9,
          ),
        )
      }
    }
  })
})

describe('LMSR exact properties', () => {
  it('hold over 120 random markets × 50 trades', () => {
    const rng = new Rng(12)
    const seen = new Map<string, number>()
    let trades = 0
    for (let mi = 0; mi < 120; mi++) {
      let m = createLmsrMarket({
        outcomeCount: rng.pick([2, 3, rng.int(2, 20), 20]),
        b: rng.pick([WAD, 5_000_000n * WAD, rng.logBig(WAD, 5_000_000n * WAD)]),
        tradingFee: rng.pick([0n, 5n * 10n ** 16n, rng.big(0n, 5n * 10n ** 16n)]),
        tokenDecimals: rng.pick([6, 18, rng.int(6, 18)]),
      })
      const n = m.outcomeCount
      const scaler = scalerOf(m)
      let paidIn = 0n
      let paidOut = 0n
      for (let t = 0; t < 50; t++) {
        const i = rng.int(0, n - 1)
        const q = m.supplies[i] as bigint
        try {
          if (q > 0n && rng.int(0, 2) === 0) {
            const shares = rng.pick([q, rng.big(1n, q), rng.logBig(1n, q)])
            const d = quoteSellDetailed(m, i, shares)
            expect(d.fee * E18 >= d.gross * m.tradingFee).toBe(true)
            m = sell(m, i, shares)
            paidOut += d.tokensOut
          } else {
            const lo = m.b / 100n > 10n ** 17n ? m.b / 100n : 10n ** 17n
            const shares = rng.int(0, 4) === 0 ? rng.logBig(10n ** 6n, m.b * 8n) : rng.big(lo, m.b * 8n)
            const d = quoteBuyDetailed(m, i, shares)
            expect(d.fee * E18 >= d.tokensIn * m.tradingFee).toBe(true)
            expect(quoteBuy(m, i, shares + shares / 2n + 10n ** 6n)).toBeGreaterThanOrEqual(d.tokensIn)
            const next = buy(m, i, shares)
            try {
              // Buy then sell straight back never returns more than was paid.
              expect(quoteSell(next, i, shares)).toBeLessThanOrEqual(d.tokensIn)
              // And it restores the exact state exponentials.
              expect(sell(next, i, shares).expSum).toBe(m.expSum)
            } catch (e) {
              expect(['SellTooSmall', 'GrossTokensOutNotPositive', 'ZeroTokensOut']).toContain(
                (e as Error).name,
              )
            }
            m = next
            paidIn += d.tokensIn
          }
          trades++
        } catch (e) {
          if (!(e instanceof MarketMathError)) throw e
          seen.set(e.name, (seen.get(e.name) ?? 0) + 1)
          expect([
            'TokensInBelowMin',
            'SharesInBelowMinDelta',
            'SellTooSmall',
            'GrossTokensOutNotPositive',
            'ZeroTokensOut',
            'ExpInputTooBig',
          ]).toContain(e.name)
        }
        // Stored exponentials are exactly the function of the supplies.
        m.supplies.forEach((s, j) => expect(m.exps[j]).toBe(outcomeExp(m.b, s)))
        expect(m.expSum).toBe(m.exps.reduce((a, e) => a + e, 0n))
        // Solvency: the pool covers every outcome's winners at one token per share, exactly.
        for (const s of m.supplies) expect(m.pool * scaler >= s).toBe(true)
        for (let w = 0; w < n; w++) expect(creatorSettlementValue(m, w) >= m.tradingFees).toBe(true)
        expect(m.pool + m.tradingFees + paidOut).toBe(m.initialPool + paidIn)
        const sum = prices(m).reduce((a, p) => a + p, 0n)
        expect(sum <= E18 && sum >= E18 - BigInt(n)).toBe(true)
      }
    }
    console.log(`LMSR properties: ${trades} trades, reverts ${JSON.stringify([...seen])}`)
    expect(trades).toBeGreaterThan(3000)
  })

  it('errors and slippage', () => {
    const m = createLmsrMarket({ outcomeCount: 2, b: 10n * WAD, tradingFee: 10n ** 16n, tokenDecimals: 6 })
    expect(errorName(() => createLmsrMarket({ ...m, b: WAD - 1n }))).toBe('LiquidityParameterTooLow')
    expect(errorName(() => createLmsrMarket({ ...m, b: 5_000_000n * WAD + 1n }))).toBe(
      'LiquidityParameterTooHigh',
    )
    expect(errorName(() => createLmsrMarket({ ...m, outcomeCount: 21 }))).toBe('OutcomeCountTooHigh')
    expect(errorName(() => createLmsrMarket({ ...m, tradingFee: 5n * 10n ** 16n + 1n }))).toBe(
      'TradingFeeTooHigh',
    )
    expect(errorName(() => quoteBuy(m, 2, E18))).toBe('OutcomeIdxOutOfBounds')
    expect(errorName(() => quoteBuy(m, 0, 0n))).toBe('ZeroSharesOut')
    expect(errorName(() => quoteBuy(m, 0, 999_999n))).toBe('SharesOutBelowMinDelta')
    expect(errorName(() => quoteBuy(m, 0, 10n ** 6n))).toBe('TokensInBelowMin')
    // b = 10 shares: 1,301 shares would need e^130.1.
    expect(errorName(() => quoteBuy(m, 0, 1301n * E18))).toBe('ExpInputTooBig')
    expect(errorName(() => quoteBuy(m, 0, 1300n * E18))).toBe('no error')
    const m1 = buy(m, 0, 5n * E18)
    expect(errorName(() => quoteSell(m1, 0, 0n))).toBe('ZeroSharesIn')
    expect(errorName(() => quoteSell(m1, 0, 5n * E18 + 1n))).toBe('SharesInExceedSupply')
    expect(errorName(() => quoteSell(m1, 0, 10n ** 6n))).toBe('GrossTokensOutNotPositive')
    expect(errorName(() => quoteSell(m1, 0, 10n ** 15n))).toBe('SellTooSmall') // ~0.0005 token < 0.01
    const q = quoteBuy(m, 1, E18)
    expect(errorName(() => buyExactOut(m, 1, E18, q - 1n))).toBe('TokensInExceedsMax')
    const s = quoteSell(m1, 0, E18)
    expect(errorName(() => sellExactIn(m1, 0, E18, s + 1n))).toBe('TokensOutBelowMin')
    expect(payoutIfWins(m1, 0, 5n * E18)).toBe(5_000_000n)
    // Uniform market prices are exactly 1/n each.
    expect(prices(m)).toEqual([E18 / 2n, E18 / 2n])
  })
})

describe('LMSR liquidation of an ended market', () => {
  it('covers every holder and the creator in any order, leaving dust only', () => {
    const rng = new Rng(4242)
    for (let trial = 0; trial < 60; trial++) {
      const n = rng.int(2, 6)
      const decimals = rng.pick([6, 18])
      let m = createLmsrMarket({
        outcomeCount: n,
        b: BigInt(rng.int(1, 500)) * E18,
        tradingFee: 10n ** 16n,
        tokenDecimals: decimals,
      })
      // three holders buy random amounts
      const holdings = [0, 1, 2].map(() => Array.from({ length: n }, () => 0n))
      for (let t = 0; t < 12; t++) {
        const who = rng.int(0, 2)
        const o = rng.int(0, n - 1)
        const shares = BigInt(rng.int(1, 50)) * E18
        try {
          m = buy(m, o, shares)
        } catch (e) {
          if (e instanceof MarketMathError) continue // e.g. too cheap an outcome: TokensInBelowMin
          throw e
        }
        holdings[who]![o]! += shares
      }
      const outstanding = [...m.supplies]
      const startPool = m.pool
      // holders and the creator exit in a random order
      const order = [0, 1, 2, 3].sort(() => rng.int(0, 2) - 1)
      let paid = 0n
      for (const who of order) {
        if (who === 3) {
          const v = creatorLiquidationValue(m, outstanding)
          m = { ...m, pool: m.pool - v }
          paid += v
          continue
        }
        const held = holdings[who]!.flatMap((h, o) => (h > 0n ? [o] : []))
        if (held.length === 0) continue
        const r = liquidate(m, holdings[who]!, held)
        m = r.market
        paid += r.totalTokensOut
        for (const o of held) outstanding[o]! -= holdings[who]![o]!
      }
      expect(paid + m.pool).toBe(startPool)
      expect(m.pool).toBeGreaterThanOrEqual(0n)
      // what stays locked is rounding dust: under one base unit per outcome and holder, plus one
      expect(m.pool).toBeLessThanOrEqual(BigInt(4 * n + 1))
    }
  })

  it('refuses empty, repeated and unheld indices like the gateway', () => {
    const m = buy(
      createLmsrMarket({ outcomeCount: 3, b: 10n * E18, tradingFee: 0n, tokenDecimals: 6 }),
      1,
      E18,
    )
    expect(errorName(() => liquidate(m, [0n, E18, 0n], []))).toBe('EmptyOutcomeIndices')
    expect(errorName(() => liquidate(m, [0n, E18, 0n], [1, 1]))).toBe('ZeroSharesIn')
    expect(errorName(() => liquidate(m, [0n, E18, 0n], [0]))).toBe('ZeroSharesIn')
    expect(errorName(() => liquidate(m, [0n, E18, 0n], [3]))).toBe('OutcomeIdxOutOfBounds')
    expect(errorName(() => creatorLiquidationValue(m, [0n]))).toBe('ArrayLengthMismatch')
  })
})
