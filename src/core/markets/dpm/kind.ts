// The dynamic parimutuel kind (Delphi's app markets, cost k·√Σq²) as the rest of the code sees it: its
// names, its factory's creation limits (dpm.ts, contracts/src/DpmMath.sol) and its maths. Redeeming
// divides the pool among the winning shares still unclaimed, so it needs the market's own balance.
import { tradeWith, type MarketKindSpec } from '../market-kind.ts'
import * as dpm from './dpm.ts'

const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export const dpmKind: MarketKindSpec<dpm.DpmMarket> = {
  name: 'Dynamic parimutuel',
  shortName: 'Parimutuel',
  priceNote: 'In a parimutuel market prices add up to more than one token, so the two differ.',
  liquidity: {
    label: 'k',
    field: 'Liquidity k',
    hint: 'Higher k: prices move less per share.',
    errorName: 'k',
    defaultValue: '10',
    min: dpm.MIN_K,
    max: dpm.MAX_K,
  },
  tradingFee: { min: dpm.MIN_TRADING_FEE, max: dpm.MAX_TRADING_FEE },
  deposit: {
    chosen: { minTokens: dpm.MIN_INITIAL_DEPOSIT_TOKENS, maxTokens: dpm.MAX_INITIAL_DEPOSIT_TOKENS },
    hint: 'About 1/√n of it becomes the pool; the rest is refunded at the end.',
  },
  windows: { trading: [2 * MINUTE, 365 * DAY], settlement: [HOUR, 24 * HOUR] },
  // spot prices are in the token's base units per share
  priceDecimals: (tokenDecimals) => tokenDecimals,
  redeemNeedsOwnShares: true,

  // The creator's locked shares are not read (they matter for settlement values, not for quotes).
  fromFields: (s) => ({
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
  }),
  created: (c) => dpm.createDpmMarket(c),
  spotPrices: dpm.spotPrices,
  probabilities: dpm.impliedProbabilities,
  buy: tradeWith(dpm.quoteBuyDetailed, (q) => q.tokensIn, dpm.buy),
  sell: tradeWith(dpm.quoteSellDetailed, (q) => q.tokensOut, dpm.sell),
  payoutIfWins: dpm.payoutIfWins,
  redeem: (_m, s, winner, held) =>
    dpm.redeem(
      {
        winningOutcome: winner,
        // paid out at settlement already; only pool and unclaimed shares price a redemption
        marketCreatorReward: 0n,
        refund: s.refund,
        marketCreatorTradingFeesCut: 0n,
        protocolFees: 0n,
        pool: s.pool,
        unclaimedWinningShares: s.winningSupply - s.marketOwnWinningShares,
      },
      held,
    ).tokensOut,
  liquidate: dpm.liquidate,
}
