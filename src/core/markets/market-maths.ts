// The local maths state of a market read from the chain: a snapshot becomes its kind's state (dpm/,
// lmsr/), which quotes exactly what the gateway would, to the last unit. Each function looks the kind
// up in MARKET_KINDS; none knows which kinds exist.
import type { KindTrade, MathsFields, RedeemState } from './market-kind.ts'
import { MARKET_KINDS, type KindState, type MarketKind } from './market-kinds.ts'

export type { MathsFields } from './market-kind.ts'

/**
 * A market's maths state tagged with its kind. The functions below are generic in the kind so that
 * `MARKET_KINDS[m.kind]` and `m.market` are known to belong together (TypeScript's correlated-union
 * pattern); a MathsMarket is the same pair for a kind not known statically.
 */
export type MathsMarketOf<K extends MarketKind> = { kind: K; market: KindState<K> }
export type MathsMarket = MathsMarketOf<MarketKind>
export type TradeMaths<K extends MarketKind = MarketKind> = Omit<KindTrade<KindState<K>>, 'after'> & {
  after: MathsMarketOf<K>
}

/** The maths state of `s`. */
export function mathsMarket<K extends MarketKind>(s: MathsFields & { kind: K }): MathsMarketOf<K> {
  return { kind: s.kind, market: MARKET_KINDS[s.kind].fromFields(s) }
}

/** Spot prices as the gateway returns them (DPM: base units per share; LMSR: WAD). */
export function mathsSpotPrices<K extends MarketKind>(m: MathsMarketOf<K>): bigint[] {
  return MARKET_KINDS[m.kind].spotPrices(m.market)
}

/** Implied probabilities, 1e18 = 100 % (LMSR: the prices themselves). */
export function mathsProbabilities<K extends MarketKind>(m: MathsMarketOf<K>): bigint[] {
  return MARKET_KINDS[m.kind].probabilities(m.market)
}

function trade<K extends MarketKind>(
  side: 'buy' | 'sell',
  m: MathsMarketOf<K>,
  outcome: number,
  shares: bigint,
): TradeMaths<K> {
  const t = MARKET_KINDS[m.kind][side](m.market, outcome, shares)
  return { tokens: t.tokens, fee: t.fee, after: { kind: m.kind, market: t.after } }
}

/** Buying exactly `shares` of `outcome`: tokens paid (fee included), the fee, and the state after. */
export const buyMaths = <K extends MarketKind>(m: MathsMarketOf<K>, outcome: number, shares: bigint) =>
  trade('buy', m, outcome, shares)

/** Selling exactly `shares` of `outcome`: tokens received (fee deducted), the fee, and the state after. */
export const sellMaths = <K extends MarketKind>(m: MathsMarketOf<K>, outcome: number, shares: bigint) =>
  trade('sell', m, outcome, shares)

/** What `shares` of `outcome` would pay if it won, on state `m` (DPM: pool share; LMSR: 1 token each). */
export function mathsPayoutIfWins<K extends MarketKind>(
  m: MathsMarketOf<K>,
  outcome: number,
  shares: bigint,
): bigint {
  return MARKET_KINDS[m.kind].payoutIfWins(m.market, outcome, shares)
}

/** What `redeem` pays for `held` winning shares of a settled market (throws MarketMathError). */
export function redeemMaths<K extends MarketKind>(
  m: MathsMarketOf<K>,
  s: RedeemState,
  winner: number,
  held: bigint,
): bigint {
  return MARKET_KINDS[m.kind].redeem(m.market, s, winner, held)
}

/** What `liquidate` pays for the listed held outcomes of an expired or failed market. */
export function liquidateMaths<K extends MarketKind>(
  m: MathsMarketOf<K>,
  shares: readonly bigint[],
  outcomes: readonly number[],
): { sharesIn: bigint[]; totalTokensOut: bigint } {
  return MARKET_KINDS[m.kind].liquidate(m.market, shares, outcomes)
}
