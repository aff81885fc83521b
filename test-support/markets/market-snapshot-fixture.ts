// Test fixtures: market snapshots built from the maths (what the chain would return for that state).
import * as dpm from '../../src/core/markets/dpm/dpm.ts'
import * as lmsr from '../../src/core/markets/lmsr/lmsr.ts'
import type { MarketSnapshot } from '../../src/core/markets/market-snapshot.ts'

const BASE = {
  address: '0x00000000000000000000000000000000000000a1',
  gateway: '0x00000000000000000000000000000000000000b2',
  index: 0,
  metadata: { question: 'Q?', outcomes: ['Yes', 'No'], category: 'miscellaneous', resolutionCriteria: '' },
  metadataError: null,
  createdBlock: 1n,
  status: 0,
  tradingDeadline: 2_000_000_000n,
  settlementDeadline: 2_000_043_200n,
  winningOutcomeIdx: (1n << 256n) - 1n,
  blockNumber: 10n,
} as const

export function dpmSnapshot(m: dpm.DpmMarket, extra: Partial<MarketSnapshot> = {}): MarketSnapshot {
  return {
    ...BASE,
    metadata: { ...BASE.metadata, outcomes: m.supplies.map((_, i) => `Outcome ${i}`) },
    kind: 'dpm',
    outcomeCount: m.outcomeCount,
    k: m.k,
    tradingFee: m.tradingFee,
    initialPool: m.initialPool,
    pool: m.pool,
    tradingFees: m.tradingFees,
    refund: m.refund,
    supplies: [...m.supplies],
    sumTerm: m.sumTerm,
    exps: [],
    expSum: 0n,
    spotPrices: dpm.spotPrices(m),
    priceDecimals: m.tokenDecimals,
    probabilities: dpm.impliedProbabilities(m),
    tokenDecimals: m.tokenDecimals,
    ...extra,
  }
}

export function lmsrSnapshot(m: lmsr.LmsrMarket, extra: Partial<MarketSnapshot> = {}): MarketSnapshot {
  return {
    ...BASE,
    metadata: { ...BASE.metadata, outcomes: m.supplies.map((_, i) => `Outcome ${i}`) },
    kind: 'lmsr',
    outcomeCount: m.outcomeCount,
    k: m.b,
    tradingFee: m.tradingFee,
    initialPool: m.initialPool,
    pool: m.pool,
    tradingFees: m.tradingFees,
    refund: 0n,
    supplies: [...m.supplies],
    sumTerm: 0n,
    exps: [...m.exps],
    expSum: m.expSum,
    spotPrices: lmsr.prices(m),
    priceDecimals: 18,
    probabilities: lmsr.prices(m),
    tokenDecimals: m.tokenDecimals,
    ...extra,
  }
}
