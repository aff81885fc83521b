import { describe, expect, it } from 'vitest'
import {
  MIN_SHARES_DELTA,
  buy,
  buyExactOut,
  calculateInitialPoolAndRefund,
  createDpmMarket,
  impliedProbabilities,
  liquidate,
  liquidationValue,
  marketCreatorTotalSharesLiquidationValue,
  maxTokensInWithSlippage,
  minTokensOutWithSlippage,
  payoutIfWins,
  quoteBuy,
  quoteBuyDetailed,
  quoteSell,
  quoteSellDetailed,
  redeem,
  sell,
  sellExactIn,
  settle,
  spotPrices,
  tokenScaler,
  type DpmMarket,
} from './dpm.ts'
import { MarketMathError } from '../errors.ts'
import { Rng } from '../../../../test-support/markets/test-rng.ts'
import { bisectSqrt, errorName } from '../../../../test-support/markets/test-helpers.ts'

const E18 = 10n ** 18n

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b

/** Market with supplies set directly (for vectors on exact squares). */
function withSupplies(m: DpmMarket, supplies: bigint[]): DpmMarket {
  return { ...m, supplies, sumTerm: supplies.reduce((a, q) => a + q * q, 0n) }
}

describe('DPM exact vectors', () => {
  // n = 2, k = 1, fee 1 %, deposit 6 tokens. sharesPerOutcome = 6e18·1e18/(1e18·2) = 3e18 each, S = 18e36.
  // Buying 1e18 of outcome 1 moves supplies to (3e18, 4e18): S' = 25e36, √S' = 5e18 exactly.
  // ⌊√18e36⌋ = ⌊4.2426406871192851464…e18⌋ = 4242640687119285146, so
  // net = 5e18 − 4242640687119285146 = 757359312880714854 wei (18 decimals),
  // tokensIn = ⌈net·100/99⌉ = ⌈765009406950217024.24…⌉ = 765009406950217025.
  // Selling it back: gross = 5e18 − ⌈√18e36⌉ = 5e18 − 4242640687119285147 = 757359312880714853,
  // tokensOut = ⌊gross·99/100⌋ = ⌊749785719751907704.47⌋ = 749785719751907704.
  // initialPool = ⌈6e18·1e18/⌊√2e36⌋⌉ = ⌈6e36/1414213562373095048⌉ = 4242640687119285149.
  const base18 = { outcomeCount: 2, k: E18, tradingFee: E18 / 100n, tokenDecimals: 18 }

  it('18-decimal token', () => {
    const m = createDpmMarket({ ...base18, initialDeposit: 6n * E18 })
    expect(m.creatorSharesPerOutcome).toBe(3n * E18)
    expect(m.supplies).toEqual([3n * E18, 3n * E18])
    expect(m.sumTerm).toBe(18n * E18 * E18)
    expect(m.initialPool).toBe(4242640687119285149n)
    expect(m.refund).toBe(6n * E18 - 4242640687119285149n)
    expect(m.initialPool).toBe(ceilDiv(6n * E18 * E18, bisectSqrt(2n * E18 * E18)))

    expect(quoteBuy(m, 1, E18)).toBe(765009406950217025n)
    const net = 5n * E18 - bisectSqrt(18n * E18 * E18)
    expect(net).toBe(757359312880714854n)
    expect(quoteBuy(m, 1, E18)).toBe(ceilDiv(net * 100n, 99n))
    const m1 = buy(m, 1, E18)
    expect(m1.supplies).toEqual([3n * E18, 4n * E18])
    expect(m1.pool).toBe(m.pool + net)
    expect(m1.tradingFees).toBe(765009406950217025n - net)
    expect(spotPrices(m1)).toEqual([6n * 10n ** 17n, 8n * 10n ** 17n]) // k·q/√S = 3/5, 4/5
    expect(impliedProbabilities(m1)).toEqual([36n * 10n ** 16n, 64n * 10n ** 16n]) // 9/25, 16/25
    expect(quoteSell(m1, 1, E18)).toBe(749785719751907704n)
    const m2 = sell(m1, 1, E18)
    expect(m2.supplies).toEqual(m.supplies)
    expect(m2.pool).toBe(m1.pool - 757359312880714853n)
    // Liquidating one share of each at (3e18, 4e18): k·(3e36 + 4e36)/(5e18·1e18) = 1.4 tokens.
    expect(liquidationValue(m1, [E18, E18])).toBe(14n * 10n ** 17n)
    // Creator's shares if outcome 1 wins: pool·3/4.
    expect(payoutIfWins(m1, 1, 3n * E18)).toBe((m1.pool * 3n) / 4n)
  })

  it('6-decimal token: same shares, amounts rounded to base units', () => {
    const m = createDpmMarket({ ...base18, tokenDecimals: 6, initialDeposit: 6_000_000n })
    expect(tokenScaler(6)).toBe(10n ** 12n)
    expect(m.supplies).toEqual([3n * E18, 3n * E18])
    // initialPool = ⌈6e6·1e18/1414213562373095048⌉ = ⌈4242640.687…⌉
    expect(m.initialPool).toBe(4242641n)
    // net = ⌈757359312880714854/1e12⌉ = 757360; tokensIn = ⌈757360·100/99⌉ = ⌈765010.10⌉ = 765011
    expect(quoteBuyDetailed(m, 1, E18)).toEqual({ tokensIn: 765011n, net: 757360n, fee: 7651n })
    const m1 = buy(m, 1, E18)
    expect(spotPrices(m1)).toEqual([600_000n, 800_000n])
    // gross = ⌊757359312880714853/1e12⌋ = 757359; tokensOut = ⌊757359·0.99⌋ = ⌊749785.41⌋ = 749785
    expect(quoteSellDetailed(m1, 1, E18)).toEqual({ tokensOut: 749785n, gross: 757359n, fee: 7574n })
  })

  it('initial pool and refund', () => {
    // 3 outcomes, 1 token of 6 decimals: ⌈1e6·1e18/⌊√3e36⌋⌉ = ⌈1e24/1732050807568877293⌉ = ⌈577350.269…⌉
    expect(calculateInitialPoolAndRefund(1_000_000n, 3)).toEqual({ initialPool: 577351n, refund: 422649n })
    // 4 outcomes: √4 = 2 exactly, no rounding.
    expect(calculateInitialPoolAndRefund(10n * E18, 4)).toEqual({ initialPool: 5n * E18, refund: 5n * E18 })
  })
})

describe('DPM errors', () => {
  const m = createDpmMarket({
    outcomeCount: 3,
    k: 2n * E18,
    tradingFee: 2n * 10n ** 16n,
    tokenDecimals: 6,
    initialDeposit: 100_000_000n,
  })

  it('creation limits', () => {
    const p = { outcomeCount: 2, k: E18, tradingFee: 10n ** 16n, tokenDecimals: 6, initialDeposit: 10n ** 6n }
    expect(errorName(() => createDpmMarket(p))).toBe('no error')
    expect(errorName(() => createDpmMarket({ ...p, outcomeCount: 1 }))).toBe('OutcomeCountTooLow')
    expect(errorName(() => createDpmMarket({ ...p, outcomeCount: 21 }))).toBe('OutcomeCountTooHigh')
    expect(errorName(() => createDpmMarket({ ...p, outcomeCount: 20 }))).toBe('no error')
    expect(errorName(() => createDpmMarket({ ...p, k: E18 - 1n }))).toBe('KTooLow')
    expect(errorName(() => createDpmMarket({ ...p, k: 100n * E18 + 1n }))).toBe('KTooHigh')
    expect(errorName(() => createDpmMarket({ ...p, k: 100n * E18 }))).toBe('no error')
    expect(errorName(() => createDpmMarket({ ...p, tradingFee: 5n * 10n ** 15n - 1n }))).toBe(
      'TradingFeeTooLow',
    )
    expect(errorName(() => createDpmMarket({ ...p, tradingFee: 5n * 10n ** 16n + 1n }))).toBe(
      'TradingFeeTooHigh',
    )
    expect(errorName(() => createDpmMarket({ ...p, initialDeposit: 999_999n }))).toBe('InitialDepositTooLow')
    expect(errorName(() => createDpmMarket({ ...p, initialDeposit: 10n ** 12n + 1n }))).toBe(
      'InitialDepositTooHigh',
    )
    expect(errorName(() => createDpmMarket({ ...p, initialDeposit: 10n ** 12n }))).toBe('no error')
    expect(errorName(() => createDpmMarket({ ...p, tokenDecimals: 5 }))).toBe('TokenDecimalsTooLow')
    expect(errorName(() => createDpmMarket({ ...p, tokenDecimals: 19 }))).toBe('TokenDecimalsTooHigh')
  })

  it('buy size and slippage', () => {
    expect(errorName(() => quoteBuy(m, 3, E18))).toBe('OutcomeIdxOutOfBounds')
    expect(errorName(() => quoteBuy(m, -1, E18))).toBe('OutcomeIdxOutOfBounds')
    expect(errorName(() => quoteBuy(m, 0, 0n))).toBe('ZeroSharesOut')
    expect(errorName(() => quoteBuy(m, 0, MIN_SHARES_DELTA - 1n))).toBe('SharesOutBelowMinDelta')
    // 1e6 wei-shares cost far less than 0.01 token.
    expect(errorName(() => quoteBuy(m, 0, MIN_SHARES_DELTA))).toBe('TokensInBelowMin')
    const e = (() => {
      try {
        quoteBuy(m, 0, MIN_SHARES_DELTA)
      } catch (err) {
        return err as MarketMathError
      }
    })()
    expect(e?.args[1]).toBe(10_000n) // MIN_TOKENS_DELTA = 0.01 token at 6 decimals
    const q = quoteBuy(m, 0, E18)
    expect(errorName(() => buyExactOut(m, 0, E18, q - 1n))).toBe('TokensInExceedsMax')
    expect(buyExactOut(m, 0, E18, q).tokensIn).toBe(q)
  })

  it('sell size, supply, pool and slippage', () => {
    const supply = m.supplies[0] as bigint
    expect(errorName(() => quoteSell(m, 0, 0n))).toBe('ZeroSharesIn')
    expect(errorName(() => quoteSell(m, 0, MIN_SHARES_DELTA - 1n))).toBe('SharesInBelowMinDelta')
    expect(errorName(() => quoteSell(m, 0, supply + 1n))).toBe('SharesInExceedSupply')
    expect(errorName(() => quoteSell(m, 0, supply - MIN_SHARES_DELTA + 1n))).toBe(
      'OutcomeSupplyBelowMinDelta',
    )
    expect(errorName(() => quoteSell(m, 0, supply - MIN_SHARES_DELTA))).toBe('no error')
    expect(errorName(() => quoteSell(m, 0, supply))).toBe('no error')
    // A minimum-size sell moves the cost by far less than one base unit.
    expect(errorName(() => quoteSell(m, 0, MIN_SHARES_DELTA))).toBe('GrossTokensOutNotPositive')
    // Worth ~0.001 token: positive gross, payout under MIN_TOKENS_DELTA.
    expect(errorName(() => quoteSell(m, 0, 10n ** 15n))).toBe('SellTooSmall')
    const drained = { ...m, pool: 1n }
    expect(errorName(() => quoteSell(drained, 0, E18))).toBe('GrossTokensOutExceedMarketPool')
    const q = quoteSell(m, 0, E18)
    expect(errorName(() => sellExactIn(m, 0, E18, q + 1n))).toBe('TokensOutBelowMin')
    expect(sellExactIn(m, 0, E18, q).tokensOut).toBe(q)
  })

  it("SqrtOverlap when the sell does not move ⌊√S⌋ past ⌈√S'⌉", () => {
    // q₀ = 1e6 on a huge S: Δ(2q − Δ) = 1e12 while √S ≈ 1e26, so ⌈√S'⌉ = ⌊√S⌋ + 1.
    const big = withSupplies(m, [2n * MIN_SHARES_DELTA, 10n ** 26n, 10n ** 26n + 12345n])
    expect(errorName(() => quoteSell(big, 0, MIN_SHARES_DELTA))).toBe('SqrtOverlap')
  })

  it('redeem and liquidate', () => {
    const s = settle(m, 1)
    expect(errorName(() => redeem(s, 0n))).toBe('RedeemZeroShares')
    const m1 = buy(m, 1, 10n ** 20n)
    const s1 = settle(m1, 1)
    expect(errorName(() => redeem(s1, 1n))).toBe('RedeemZeroTokensOut')
    expect(errorName(() => redeem(s1, 10n ** 20n + 1n))).toBe('SharesInExceedSupply')
    expect(errorName(() => settle(m1, 3))).toBe('WinningOutcomeOutOfBounds')
    expect(errorName(() => liquidate(m1, [0n, E18, 0n], []))).toBe('EmptyOutcomeIndices')
    expect(errorName(() => liquidate(m1, [0n, E18, 0n], [0]))).toBe('ZeroSharesIn')
    expect(errorName(() => liquidate(m1, [0n, E18, 0n], [1, 1]))).toBe('ZeroSharesIn')
    expect(errorName(() => liquidate(m1, [0n, E18, 0n], [1]))).toBe('no error')
    expect(errorName(() => liquidationValue(m1, [1n]))).toBe('ArrayLengthMismatch')
  })

  it('trades never modify their input', () => {
    const snapshot = JSON.stringify(m, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
    buy(m, 0, E18)
    sell(m, 1, E18)
    liquidate(m, [E18, 0n, 0n], [0])
    expect(JSON.stringify(m, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).toBe(snapshot)
  })

  it('SDK slippage helpers', () => {
    expect(maxTokensInWithSlippage(10_000n)).toBe(10_200n)
    expect(minTokensOutWithSlippage(10_000n)).toBe(9_800n)
    expect(minTokensOutWithSlippage(99n, 50n)).toBe(98n) // ⌊99·9950/10000⌋ = ⌊98.505⌋
  })
})

// ——— Properties over random markets and trade sequences ———

const ALLOWED_TRADE_ERRORS = new Set([
  'TokensInBelowMin',
  'GrossTokensOutNotPositive',
  'SellTooSmall',
  'ZeroTokensOut',
  'SqrtOverlap',
  'OutcomeSupplyBelowMinDelta',
])

function randomMarket(rng: Rng): DpmMarket {
  const tokenDecimals = rng.pick([6, 6, 8, 12, 18, 18, rng.int(6, 18)])
  const unit = 10n ** BigInt(tokenDecimals)
  return createDpmMarket({
    outcomeCount: rng.pick([2, 2, 3, rng.int(2, 20), 20]),
    k: rng.pick([E18, 100n * E18, rng.big(E18, 100n * E18)]),
    tradingFee: rng.pick([5n * 10n ** 15n, 5n * 10n ** 16n, rng.big(5n * 10n ** 15n, 5n * 10n ** 16n)]),
    tokenDecimals,
    initialDeposit: rng.pick([unit, 1_000_000n * unit, rng.logBig(unit, 1_000_000n * unit)]),
  })
}

/** pool ≥ C(q) = k·√S/(1e18·scaler) exactly: (pool·1e18·scaler)² ≥ k²·S. */
function poolCoversCost(m: DpmMarket): boolean {
  const lhs = m.pool * E18 * tokenScaler(m.tokenDecimals)
  return lhs * lhs >= m.k * m.k * m.sumTerm
}

/** A·1e18… with A = net·1e18·scaler: A ≥ k(√S' − √S), checked by squaring (no roots). */
function chargeCoversCostIncrease(m: DpmMarket, net: bigint, sNew: bigint): boolean {
  const a = net * E18 * tokenScaler(m.tokenDecimals)
  const lhs = m.k * m.k * (sNew - m.sumTerm) - a * a // need lhs ≤ 2·a·k·√S
  if (lhs <= 0n) return true
  return lhs * lhs <= 4n * a * a * m.k * m.k * m.sumTerm
}

/** G = gross·1e18·scaler ≤ k(√S − √S'), checked by squaring. */
function payoutWithinCostDecrease(m: DpmMarket, gross: bigint, sNew: bigint): boolean {
  const g = gross * E18 * tokenScaler(m.tokenDecimals)
  const rhs = m.k * m.k * (m.sumTerm - sNew) - g * g // need 2·g·k·√S' ≤ rhs
  if (rhs < 0n) return false
  return 4n * g * g * m.k * m.k * sNew <= rhs * rhs
}

describe('DPM properties', () => {
  it('hold over 150 random markets × 60 random trades', () => {
    const rng = new Rng(42)
    const seenErrors = new Map<string, number>()
    let trades = 0
    for (let mi = 0; mi < 150; mi++) {
      let m = randomMarket(rng)
      const n = m.outcomeCount
      const unit = 10n ** BigInt(m.tokenDecimals)
      // holders[0] is the creator (locked shares), 1..3 are traders.
      const holders: bigint[][] = [m.supplies.slice(), ...[1, 2, 3].map(() => Array<bigint>(n).fill(0n))]
      let paidIn = 0n
      let paidOut = 0n
      for (let t = 0; t < 60; t++) {
        const outcome = rng.int(0, n - 1)
        const h = rng.int(1, 3)
        const holding = holders[h] as bigint[]
        const held = holding[outcome] as bigint
        const isSell = held > 0n && rng.int(0, 2) === 0
        try {
          if (!isSell) {
            // Mostly tradeable sizes, sometimes tiny ones that hit the minimums.
            const shares =
              rng.int(0, 4) === 0
                ? rng.logBig(MIN_SHARES_DELTA, 10n ** 23n)
                : rng.logBig(10n ** 17n, 10n ** 24n)
            const d = quoteBuyDetailed(m, outcome, shares)
            const next = buy(m, outcome, shares)
            expect(chargeCoversCostIncrease(m, d.net, next.sumTerm)).toBe(true)
            expect(d.fee * E18 >= d.tokensIn * m.tradingFee).toBe(true) // fee ≥ rate·tokensIn
            expect(d.tokensIn >= unit / 100n).toBe(true)
            // Quotes are monotone in size.
            expect(quoteBuy(m, outcome, shares + shares / 3n + MIN_SHARES_DELTA)).toBeGreaterThanOrEqual(
              d.tokensIn,
            )
            // Buying then selling the same shares straight away never returns more than was paid.
            try {
              expect(quoteSell(next, outcome, shares)).toBeLessThanOrEqual(d.tokensIn)
            } catch (e) {
              expect(ALLOWED_TRADE_ERRORS.has((e as Error).name)).toBe(true)
            }
            m = next
            holding[outcome] = held + shares
            paidIn += d.tokensIn
          } else {
            const shares = rng.pick([held, rng.big(1n, held), rng.logBig(1n, held)])
            const d = quoteSellDetailed(m, outcome, shares)
            const next = sell(m, outcome, shares)
            expect(payoutWithinCostDecrease(m, d.gross, next.sumTerm)).toBe(true)
            expect(d.fee * E18 >= d.gross * m.tradingFee).toBe(true)
            if (shares / 2n >= MIN_SHARES_DELTA) {
              try {
                expect(quoteSell(m, outcome, shares / 2n)).toBeLessThanOrEqual(d.tokensOut)
              } catch (e) {
                expect(ALLOWED_TRADE_ERRORS.has((e as Error).name)).toBe(true)
              }
            }
            m = next
            holding[outcome] = held - shares
            paidOut += d.tokensOut
          }
          trades++
        } catch (e) {
          if (!(e instanceof MarketMathError)) throw e
          seenErrors.set(e.name, (seenErrors.get(e.name) ?? 0) + 1)
          expect([...ALLOWED_TRADE_ERRORS, 'SharesInBelowMinDelta']).toContain(e.name)
        }
        // State invariants after every step.
        expect(m.sumTerm).toBe(m.supplies.reduce((a, q) => a + q * q, 0n))
        for (let i = 0; i < n; i++)
          expect(holders.reduce((a, hs) => a + (hs[i] as bigint), 0n)).toBe(m.supplies[i])
        expect(poolCoversCost(m)).toBe(true)
        expect(m.pool + m.tradingFees + paidOut).toBe(m.initialPool + paidIn)
        const probs = impliedProbabilities(m)
        const sumP = probs.reduce((a, b) => a + b, 0n)
        expect(sumP <= E18 && sumP >= E18 - BigInt(n)).toBe(true)
        // Σ spot prices ∈ [k, k·√n] per whole share (before flooring each term to base units).
        const sumPrice = spotPrices(m).reduce((a, b) => a + b, 0n) * tokenScaler(m.tokenDecimals)
        // Upper end: the prices divide by ⌊√S⌋, so Σp ≤ k·√n·√S/⌊√S⌋, i.e. (Σp·⌊√S⌋)² ≤ k²·n·S.
        const root = bisectSqrt(m.sumTerm)
        expect((sumPrice * root) ** 2n <= m.k * m.k * BigInt(n) * m.sumTerm).toBe(true)
        expect(sumPrice + BigInt(n) * tokenScaler(m.tokenDecimals) >= m.k).toBe(true)
      }

      // Expiry: liquidating every holding, in a random order, never needs more than the pool.
      let liq = m
      const order = holders.map((_, i) => i).sort(() => rng.int(0, 1) * 2 - 1)
      for (const h of order) {
        const hs = holders[h] as bigint[]
        const indices = hs.flatMap((s, i) => (s > 0n ? [i] : []))
        if (indices.length === 0) continue
        const r = liquidate(liq, hs, indices)
        liq = r.market
      }
      // Everything paid out at frozen prices stays within C(q) = k·√S/(1e18·scaler) ≤ pool.
      const liquidated = (m.pool - liq.pool) * E18 * tokenScaler(m.tokenDecimals)
      expect(liquidated * liquidated <= m.k * m.k * m.sumTerm).toBe(true)
      expect(marketCreatorTotalSharesLiquidationValue(m)).toBe(liquidationValue(m, holders[0] as bigint[]))

      // Settlement on each outcome: creator reward plus every redeem pays out exactly the pool.
      for (let w = 0; w < n; w++) {
        let s = settle(m, w, rng.big(0n, E18))
        expect(s.marketCreatorReward).toBe(payoutIfWins(m, w, m.creatorSharesPerOutcome))
        expect(s.protocolFees + s.marketCreatorTradingFeesCut).toBe(m.tradingFees)
        let paid = s.marketCreatorReward
        for (const h of [1, 2, 3].sort(() => rng.int(0, 1) * 2 - 1)) {
          const shares = (holders[h] as bigint[])[w] as bigint
          if (shares === 0n) continue
          const fair = payoutIfWins(m, w, shares)
          try {
            const r = redeem(s, shares)
            // Redeeming in any order pays at least the pro-rata floor (earlier rounding leftovers stay in the pool).
            expect(r.tokensOut >= fair).toBe(true)
            paid += r.tokensOut
            s = r.settlement
          } catch (e) {
            expect((e as Error).name).toBe('RedeemZeroTokensOut')
          }
        }
        if (s.unclaimedWinningShares === 0n) expect(paid).toBe(m.pool)
        else expect(paid <= m.pool).toBe(true)
      }
    }
    console.log(`DPM properties: ${trades} trades, reverts ${JSON.stringify([...seenErrors])}`)
    expect(trades).toBeGreaterThan(5000)
    // The random sizes reach the main revert paths.
    expect(seenErrors.get('TokensInBelowMin') ?? 0).toBeGreaterThan(0)
  })
})
