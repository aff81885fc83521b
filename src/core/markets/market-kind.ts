// What a market kind (a pricing rule with its own factory and gateway) gives the rest of the code:
// its names, the limits its contracts enforce on creation, and its maths over its own state type `M`.
// Each kind implements this once in its folder (dpm/kind.ts, lmsr/kind.ts) and market-kinds.ts lists
// them; the callers look a kind up there instead of branching on its name.

/** The snapshot fields a kind's maths state is built from (see MarketSnapshot for their meaning). */
export interface MathsFields {
  outcomeCount: number
  k: bigint
  tradingFee: bigint
  tokenDecimals: number
  supplies: readonly bigint[]
  pool: bigint
  tradingFees: bigint
  sumTerm: bigint
  exps: readonly bigint[]
  expSum: bigint
  initialPool: bigint
  refund: bigint
}

/** A market's configuration at creation, liquidity `k` being DPM k or LMSR b. */
export interface KindConfig {
  outcomeCount: number
  k: bigint
  tradingFee: bigint
  tokenDecimals: number
}

export interface KindTrade<M> {
  /** buy: tokens paid (fee included); sell: tokens received (fee deducted) */
  tokens: bigint
  fee: bigint
  after: M
}

/**
 * A kind's trade from its detailed quote and its state update: the quote's tokens (paid in or
 * received out) and fee, and the state after the trade.
 */
export function tradeWith<M, Q extends { fee: bigint }>(
  quote: (m: M, outcome: number, shares: bigint) => Q,
  tokens: (q: Q) => bigint,
  apply: (m: M, outcome: number, shares: bigint) => M,
): (m: M, outcome: number, shares: bigint) => KindTrade<M> {
  return (m, outcome, shares) => {
    const q = quote(m, outcome, shares)
    return { tokens: tokens(q), fee: q.fee, after: apply(m, outcome, shares) }
  }
}

/** A settled market's pool and the winning shares the market itself holds (redeem pricing needs both). */
export interface RedeemState {
  pool: bigint
  refund: bigint
  winningSupply: bigint
  /** the market's own balance of the winning outcome (0 where the kind does not need it) */
  marketOwnWinningShares: bigint
}

export interface MarketKindSpec<M> {
  /** the pricing rule as the UI names it ("Dynamic parimutuel") and where space is short */
  name: string
  shortName: string
  /** one sentence on how its prices relate to probabilities, under the outcome table */
  priceNote: string
  liquidity: {
    /** the market page's label for `k`, the create form's field label and hint, and the word errors use */
    label: string
    field: string
    hint: string
    errorName: string
    /** the create form's starting value, in the field's units */
    defaultValue: string
    min: bigint
    max: bigint
  }
  tradingFee: { min: bigint; max: bigint }
  /** The creator's deposit: chosen within whole-token bounds, or set by the liquidity alone. */
  deposit:
    | { chosen: { minTokens: bigint; maxTokens: bigint }; hint: string }
    | { fromLiquidity: (c: KindConfig) => bigint; hint: string }
  /** trading and settlement windows in seconds that the factory accepts */
  windows: { trading: [number, number]; settlement: [number, number] }
  /** decimals of the gateway's spot prices for a token of `tokenDecimals` */
  priceDecimals: (tokenDecimals: number) => number
  /** whether pricing a redemption needs the market's own balance of the winning outcome read */
  redeemNeedsOwnShares: boolean

  /** The maths state of a market read from the chain. */
  fromFields: (s: MathsFields) => M
  /** The state at creation from a deposit of `initialDeposit` base units. */
  created: (c: KindConfig & { initialDeposit: bigint }) => M
  /** spot prices as the gateway returns them */
  spotPrices: (m: M) => bigint[]
  /** implied probabilities, 1e18 = 100 % */
  probabilities: (m: M) => bigint[]
  buy: (m: M, outcome: number, shares: bigint) => KindTrade<M>
  sell: (m: M, outcome: number, shares: bigint) => KindTrade<M>
  /** what `shares` of `outcome` would pay if it won */
  payoutIfWins: (m: M, outcome: number, shares: bigint) => bigint
  /** what `redeem` pays for `held` winning shares of a settled market; throws MarketMathError */
  redeem: (m: M, s: RedeemState, winner: number, held: bigint) => bigint
  /** what `liquidate` pays for the listed held outcomes of an expired or failed market */
  liquidate: (
    m: M,
    shares: readonly bigint[],
    outcomes: readonly number[],
  ) => { sharesIn: bigint[]; totalTokensOut: bigint }
}
