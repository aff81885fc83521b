// The local maths state of a market read from the chain: a snapshot becomes the DpmMarket / LmsrMarket
// that dpm.ts / lmsr.ts quote on, so a quote here equals the gateway's quote to the last unit.
import * as dpm from './dpm/dpm.ts'
import * as lmsr from './lmsr/lmsr.ts'
import type { MarketSnapshot } from './market-snapshot.ts'

export type MathsMarket = { kind: 'dpm'; market: dpm.DpmMarket } | { kind: 'lmsr'; market: lmsr.LmsrMarket }

export type MathsFields = Pick<
  MarketSnapshot,
  | 'kind'
  | 'outcomeCount'
  | 'k'
  | 'tradingFee'
  | 'tokenDecimals'
  | 'supplies'
  | 'pool'
  | 'tradingFees'
  | 'sumTerm'
  | 'exps'
  | 'expSum'
  | 'initialPool'
  | 'refund'
>

/**
 * The maths state of `s`. For DPM, the creator's locked shares are not read (they only matter for
 * settlement values, not for trading quotes): `creatorSharesPerOutcome` is 0.
 */
export function mathsMarket(s: MathsFields): MathsMarket {
  if (s.kind === 'dpm')
    return {
      kind: 'dpm',
      market: {
        outcomeCount: s.outcomeCount,
        k: s.k,
        tradingFee: s.tradingFee,
        tokenDecimals: s.tokenDecimals,
        supplies: [...s.supplies],
        pool: s.pool,
        tradingFees: s.tradingFees,
        sumTerm: s.sumTerm,
        creatorSharesPerOutcome: 0n,
        initialDeposit: s.initialPool + s.refund,
        initialPool: s.initialPool,
        refund: s.refund,
      },
    }
  return {
    kind: 'lmsr',
    market: {
      outcomeCount: s.outcomeCount,
      b: s.k,
      tradingFee: s.tradingFee,
      tokenDecimals: s.tokenDecimals,
      supplies: [...s.supplies],
      exps: [...s.exps],
      expSum: s.expSum,
      pool: s.pool,
      tradingFees: s.tradingFees,
      initialPool: s.initialPool,
    },
  }
}

/** Spot prices as the gateway returns them (DPM: base units per share; LMSR: WAD). */
export function mathsSpotPrices(m: MathsMarket): bigint[] {
  return m.kind === 'dpm' ? dpm.spotPrices(m.market) : lmsr.prices(m.market)
}

/** Implied probabilities, 1e18 = 100 % (LMSR: the prices themselves). */
export function mathsProbabilities(m: MathsMarket): bigint[] {
  return m.kind === 'dpm' ? dpm.impliedProbabilities(m.market) : lmsr.prices(m.market)
}

export interface TradeMaths {
  /** buy: tokens paid (fee included); sell: tokens received (fee deducted) */
  tokens: bigint
  fee: bigint
  after: MathsMarket
}

export function buyMaths(m: MathsMarket, outcome: number, shares: bigint): TradeMaths {
  if (m.kind === 'dpm') {
    const q = dpm.quoteBuyDetailed(m.market, outcome, shares)
    return {
      tokens: q.tokensIn,
      fee: q.fee,
      after: { kind: 'dpm', market: dpm.buy(m.market, outcome, shares) },
    }
  }
  const q = lmsr.quoteBuyDetailed(m.market, outcome, shares)
  return {
    tokens: q.tokensIn,
    fee: q.fee,
    after: { kind: 'lmsr', market: lmsr.buy(m.market, outcome, shares) },
  }
}

export function sellMaths(m: MathsMarket, outcome: number, shares: bigint): TradeMaths {
  if (m.kind === 'dpm') {
    const q = dpm.quoteSellDetailed(m.market, outcome, shares)
    return {
      tokens: q.tokensOut,
      fee: q.fee,
      after: { kind: 'dpm', market: dpm.sell(m.market, outcome, shares) },
    }
  }
  const q = lmsr.quoteSellDetailed(m.market, outcome, shares)
  return {
    tokens: q.tokensOut,
    fee: q.fee,
    after: { kind: 'lmsr', market: lmsr.sell(m.market, outcome, shares) },
  }
}

/** What `shares` of `outcome` would pay if it won, on state `m` (DPM: pool share; LMSR: 1 token each). */
export function mathsPayoutIfWins(m: MathsMarket, outcome: number, shares: bigint): bigint {
  return m.kind === 'dpm'
    ? dpm.payoutIfWins(m.market, outcome, shares)
    : lmsr.payoutIfWins(m.market, outcome, shares)
}
