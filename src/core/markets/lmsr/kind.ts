// The LMSR kind (Delphi's competition network, cost b·ln Σe^{q/b}) as the rest of the code sees it: its
// names, its factory's creation limits (lmsr.ts, contracts/src/LmsrMarket.sol) and its maths. A market
// is funded with exactly its maximum loss b·ln n, and a winning share pays one token.
import { MarketMathError } from '../errors.ts'
import { tradeWith, type MarketKindSpec } from '../market-kind.ts'
import { MAX_TRADING_FEE } from '../dpm/dpm.ts'
import * as lmsr from './lmsr.ts'

const DAY = 86_400

export const lmsrKind: MarketKindSpec<lmsr.LmsrMarket> = {
  name: 'LMSR',
  shortName: 'LMSR',
  priceNote: 'In an LMSR market a price equals the probability, in tokens.',
  liquidity: {
    label: 'Liquidity b',
    field: 'Liquidity b (shares)',
    hint: 'Higher b: prices move less per share, and the deposit (b·ln n) grows.',
    errorName: 'The liquidity b',
    defaultValue: '100',
    min: lmsr.MIN_LIQUIDITY,
    max: lmsr.MAX_LIQUIDITY,
  },
  // LMSR fee bounds are not published; lmsr.ts accepts 0 – 5 % (the DPM maximum).
  tradingFee: { min: 0n, max: MAX_TRADING_FEE },
  deposit: {
    fromLiquidity: (c) => lmsr.createLmsrMarket({ ...c, b: c.k }).initialPool,
    hint: 'An LMSR market is funded with exactly its maximum loss, b·ln n.',
  },
  windows: { trading: [30, 3_650 * DAY], settlement: [30, 3_650 * DAY] },
  // spot prices are WAD fractions of one token
  priceDecimals: () => 18,
  redeemNeedsOwnShares: false,

  fromFields: (s) => ({
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
  }),
  created: (c) => lmsr.createLmsrMarket({ ...c, b: c.k }),
  spotPrices: lmsr.prices,
  probabilities: lmsr.prices,
  buy: tradeWith(lmsr.quoteBuyDetailed, (q) => q.tokensIn, lmsr.buy),
  sell: tradeWith(lmsr.quoteSellDetailed, (q) => q.tokensOut, lmsr.sell),
  payoutIfWins: lmsr.payoutIfWins,
  redeem: (m, _s, winner, held) => {
    const tokensOut = lmsr.payoutIfWins(m, winner, held)
    if (tokensOut === 0n) throw new MarketMathError('RedeemZeroTokensOut')
    return tokensOut
  },
  liquidate: lmsr.liquidate,
}
