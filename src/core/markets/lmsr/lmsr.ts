/**
 * LMSR market maths (research/delphi.md §4): the executable spec of the tabswarm LMSR contract.
 * Same trading interface as dpm.ts (quoteBuy / quoteSell / buy / sell / prices, gateway errors).
 *
 * Units: qᵢ wei-shares (18 decimals), liquidity b in wei-shares (1e18 = one share), tokens in
 * collateral base units (scaler = 10^(18 − decimals)); one winning share (1e18 wei-shares) pays
 * exactly one token (10^decimals base units).
 *
 * State: eᵢ = expUpWad(⌈qᵢ·1e27/b⌉) (an upper bound of e^{qᵢ/b}·1e18, see exp-ln.ts) and
 * E = Σ eᵢ, as the contract stores them (its quotes return `outcomeNewExp` and `newExpSum`).
 * Cost C = b·ln(E/1e18); a trade changes one eᵢ, so its cost is b·ln(E'/E):
 * - buy Δ of i:  e'ᵢ = expUpWad(⌈(qᵢ+Δ)·1e27/b⌉), E' = E − eᵢ + e'ᵢ;
 *   net = ⌈b·lnRatioUp(E', E) / (1e27·scaler)⌉, tokensIn = ⌈net·1e18/(1e18 − fee)⌉, pool += net.
 * - sell Δ of i: e'ᵢ = expUpWad(⌈(qᵢ−Δ)·1e27/b⌉), E' = E − eᵢ + e'ᵢ;
 *   gross = ⌊b·lnRatioDown(E, E') / (1e27·scaler)⌋, tokensOut = ⌊gross·(1e18 − fee)/1e18⌋, pool −= gross.
 * - creator funds initialPool = ⌈b·lnRatioUp(n·1e18, 1e18) / (1e27·scaler)⌉ ≥ b·ln n.
 * Because costs use an upper bound of ln and payouts a lower bound, pool ≥ b·ln(E/1e18) at all
 * times, and since every eᵢ ≥ e^{qᵢ/b}·1e18, pool·scaler ≥ max qᵢ: the pool always covers the
 * winners of any outcome (tested exactly).
 * - prices πᵢ = ⌊eᵢ·1e18/E⌋ (softmax; Σπ ∈ [1e18 − n + 1, 1e18]).
 */
import { fail } from '../errors.ts'
import { liquidateWith } from '../liquidation.ts'
import { checkOutcome } from '../outcome-index.ts'
import { buyExactOutWith, sellExactInWith } from '../slippage.ts'
import { MIN_SHARES_DELTA, MAX_TRADING_FEE, minTokensDelta, tokenScaler } from '../dpm/dpm.ts'
import { RAY, expUpWad, lnRatioDown, lnRatioUp } from '../exp-ln.ts'
import { WAD, assertUint256, mulDivDown, mulDivUp } from '../fixed-point.ts'

export const MIN_LIQUIDITY = 1n * WAD
export const MAX_LIQUIDITY = 5_000_000n * WAD
export const MIN_LMSR_OUTCOME_COUNT = 2
export const MAX_LMSR_OUTCOME_COUNT = 20

export interface LmsrMarket {
  outcomeCount: number
  /** Liquidity parameter b, wei-shares. */
  b: bigint
  tradingFee: bigint
  tokenDecimals: number
  supplies: bigint[]
  /** eᵢ, WAD. */
  exps: bigint[]
  /** Σ eᵢ, WAD. */
  expSum: bigint
  pool: bigint
  tradingFees: bigint
  initialPool: bigint
}

/** The supply of a valid outcome (`OutcomeIdxOutOfBounds` otherwise). */
function supplyOf(m: LmsrMarket, outcome: number): bigint {
  checkOutcome(m, outcome)
  return m.supplies[outcome] as bigint
}

/** eᵢ for a supply: the exponent is rounded up (⌈q·1e27/b⌉) so eᵢ stays an upper bound. */
export function outcomeExp(b: bigint, supply: bigint): bigint {
  return expUpWad(mulDivUp(supply, RAY, b))
}

export function createLmsrMarket(p: {
  outcomeCount: number
  b: bigint
  tradingFee: bigint
  tokenDecimals: number
}): LmsrMarket {
  const { outcomeCount, b, tradingFee, tokenDecimals } = p
  if (!Number.isInteger(tokenDecimals) || tokenDecimals < 6)
    fail('TokenDecimalsTooLow', BigInt(Math.trunc(tokenDecimals)))
  if (tokenDecimals > 18) fail('TokenDecimalsTooHigh', BigInt(tokenDecimals))
  if (!Number.isInteger(outcomeCount) || outcomeCount < MIN_LMSR_OUTCOME_COUNT)
    fail('OutcomeCountTooLow', BigInt(Math.trunc(outcomeCount)), BigInt(MIN_LMSR_OUTCOME_COUNT))
  if (outcomeCount > MAX_LMSR_OUTCOME_COUNT)
    fail('OutcomeCountTooHigh', BigInt(outcomeCount), BigInt(MAX_LMSR_OUTCOME_COUNT))
  if (b < MIN_LIQUIDITY) fail('LiquidityParameterTooLow', b, MIN_LIQUIDITY)
  if (b > MAX_LIQUIDITY) fail('LiquidityParameterTooHigh', b, MAX_LIQUIDITY)
  assertUint256(tradingFee)
  // LMSR fee bounds are not published; we accept 0 – 5 % (the DPM maximum).
  if (tradingFee > MAX_TRADING_FEE) fail('TradingFeeTooHigh', tradingFee, MAX_TRADING_FEE)
  const n = BigInt(outcomeCount)
  // Max loss b·ln n, rounded up (ln bound up, then ⌈⌉ to base units): against the creator.
  const initialPool = mulDivUp(b, lnRatioUp(n * WAD, WAD), RAY * tokenScaler(tokenDecimals))
  return {
    outcomeCount,
    b,
    tradingFee,
    tokenDecimals,
    supplies: Array.from({ length: outcomeCount }, () => 0n),
    exps: Array.from({ length: outcomeCount }, () => WAD),
    expSum: n * WAD,
    pool: initialPool,
    tradingFees: 0n,
    initialPool,
  }
}

export interface LmsrBuyQuote {
  tokensIn: bigint
  net: bigint
  fee: bigint
  outcomeNewExp: bigint
  newExpSum: bigint
}

export interface LmsrSellQuote {
  tokensOut: bigint
  gross: bigint
  fee: bigint
  outcomeNewExp: bigint
  newExpSum: bigint
}

export function quoteBuyDetailed(m: LmsrMarket, outcome: number, sharesOut: bigint): LmsrBuyQuote {
  const q = supplyOf(m, outcome)
  assertUint256(sharesOut)
  if (sharesOut === 0n) fail('ZeroSharesOut')
  if (sharesOut < MIN_SHARES_DELTA) fail('SharesOutBelowMinDelta', sharesOut, MIN_SHARES_DELTA)
  const outcomeNewExp = outcomeExp(m.b, q + sharesOut) // ExpInputTooBig past (q+Δ)/b = 130
  const newExpSum = m.expSum - (m.exps[outcome] as bigint) + outcomeNewExp
  // ln rounded up, then the amount rounded up to base units: against the buyer. The exponent only
  // grows, so E' ≥ E in practice; should expUpWad ever step down by an ulp across a range-reduction
  // boundary, max() charges the error slack alone rather than taking the ln of a ratio below one.
  // The contract must do the same.
  const top = newExpSum > m.expSum ? newExpSum : m.expSum
  const net = mulDivUp(m.b, lnRatioUp(top, m.expSum), RAY * tokenScaler(m.tokenDecimals))
  if (net === 0n) fail('ZeroNetTokensIn')
  const tokensIn = mulDivUp(net, WAD, WAD - m.tradingFee)
  if (tokensIn === 0n) fail('ZeroTokensIn')
  const minTokens = minTokensDelta(m.tokenDecimals)
  if (tokensIn < minTokens) fail('TokensInBelowMin', tokensIn, minTokens)
  return { tokensIn, net, fee: tokensIn - net, outcomeNewExp, newExpSum }
}

export function quoteSellDetailed(m: LmsrMarket, outcome: number, sharesIn: bigint): LmsrSellQuote {
  const q = supplyOf(m, outcome)
  assertUint256(sharesIn)
  if (sharesIn === 0n) fail('ZeroSharesIn')
  if (sharesIn < MIN_SHARES_DELTA) fail('SharesInBelowMinDelta', sharesIn, MIN_SHARES_DELTA)
  if (sharesIn > q) fail('SharesInExceedSupply', sharesIn, q)
  const outcomeNewExp = outcomeExp(m.b, q - sharesIn)
  const newExpSum = m.expSum - (m.exps[outcome] as bigint) + outcomeNewExp
  // Same guard on the way down: no payout unless E strictly falls.
  if (newExpSum >= m.expSum) fail('GrossTokensOutNotPositive')
  // ln rounded down, then the amount rounded down to base units: against the seller.
  const gross = mulDivDown(m.b, lnRatioDown(m.expSum, newExpSum), RAY * tokenScaler(m.tokenDecimals))
  if (gross === 0n) fail('GrossTokensOutNotPositive')
  if (gross > m.pool) fail('GrossTokensOutExceedMarketPool')
  const tokensOut = mulDivDown(gross, WAD - m.tradingFee, WAD)
  if (tokensOut === 0n) fail('ZeroTokensOut')
  if (tokensOut < minTokensDelta(m.tokenDecimals)) fail('SellTooSmall')
  return { tokensOut, gross, fee: gross - tokensOut, outcomeNewExp, newExpSum }
}

export function quoteBuy(m: LmsrMarket, outcome: number, sharesOut: bigint): bigint {
  return quoteBuyDetailed(m, outcome, sharesOut).tokensIn
}

export function quoteSell(m: LmsrMarket, outcome: number, sharesIn: bigint): bigint {
  return quoteSellDetailed(m, outcome, sharesIn).tokensOut
}

function replaceAt(xs: bigint[], i: number, v: bigint): bigint[] {
  return xs.map((x, j) => (j === i ? v : x))
}

export function buy(m: LmsrMarket, outcome: number, sharesOut: bigint): LmsrMarket {
  const r = quoteBuyDetailed(m, outcome, sharesOut)
  return {
    ...m,
    supplies: replaceAt(m.supplies, outcome, (m.supplies[outcome] as bigint) + sharesOut),
    exps: replaceAt(m.exps, outcome, r.outcomeNewExp),
    expSum: r.newExpSum,
    pool: m.pool + r.net,
    tradingFees: m.tradingFees + r.fee,
  }
}

export function sell(m: LmsrMarket, outcome: number, sharesIn: bigint): LmsrMarket {
  const r = quoteSellDetailed(m, outcome, sharesIn)
  return {
    ...m,
    supplies: replaceAt(m.supplies, outcome, (m.supplies[outcome] as bigint) - sharesIn),
    exps: replaceAt(m.exps, outcome, r.outcomeNewExp),
    expSum: r.newExpSum,
    pool: m.pool - r.gross,
    tradingFees: m.tradingFees + r.fee,
  }
}

/** `buyExactOut` with slippage: reverts `TokensInExceedsMax(tokensIn, maxTokensIn)`. */
export const buyExactOut = (m: LmsrMarket, outcome: number, sharesOut: bigint, maxTokensIn: bigint) =>
  buyExactOutWith({ quoteBuy, quoteSell, buy, sell }, m, outcome, sharesOut, maxTokensIn)

/** `sellExactIn` with slippage: reverts `TokensOutBelowMin(tokensOut, minTokensOut)`. */
export const sellExactIn = (m: LmsrMarket, outcome: number, sharesIn: bigint, minTokensOut: bigint) =>
  sellExactInWith({ quoteBuy, quoteSell, buy, sell }, m, outcome, sharesIn, minTokensOut)

/** Softmax prices = implied probabilities, WAD: ⌊eᵢ·1e18/E⌋ (rounded down). */
export function prices(m: LmsrMarket): bigint[] {
  return m.exps.map((e) => mulDivDown(e, WAD, m.expSum))
}

/** A winning share pays one token: ⌊shares/scaler⌋ base units (rounded down). */
export function payoutIfWins(m: LmsrMarket, outcome: number, shares: bigint): bigint {
  checkOutcome(m, outcome)
  return shares / tokenScaler(m.tokenDecimals)
}

/**
 * Creator's take when `winningOutcome` wins: the pool minus what the winners are owed
 * (⌊q_w/scaler⌋, which bounds the sum of their individually floored redemptions), plus all fees.
 */
export function creatorSettlementValue(m: LmsrMarket, winningOutcome: number): bigint {
  const q = supplyOf(m, winningOutcome)
  return m.pool - q / tokenScaler(m.tokenDecimals) + m.tradingFees
}

// ——— Liquidation (expired / failed markets) ———

/**
 * Value of a holding `shares[i]` at the frozen prices: ⌊Σᵢ⌊sᵢ·eᵢ/E⌋ / scaler⌋, every step rounded
 * down (against the holder).
 */
export function liquidationValue(m: LmsrMarket, shares: readonly bigint[]): bigint {
  if (shares.length !== m.outcomeCount) fail('ArrayLengthMismatch')
  let sum = 0n
  shares.forEach((s, i) => {
    assertUint256(s)
    if (s !== 0n) sum += mulDivDown(s, m.exps[i] as bigint, m.expSum)
  })
  return sum / tokenScaler(m.tokenDecimals)
}

/** Gateway `liquidate` for a holder of `balances`: see liquidation.ts; supplies and prices stay frozen. */
export function liquidate(
  m: LmsrMarket,
  balances: readonly bigint[],
  outcomeIndices: readonly number[],
): { market: LmsrMarket; sharesIn: bigint[]; totalTokensOut: bigint } {
  return liquidateWith(m, balances, outcomeIndices, liquidationValue)
}

/**
 * The creator's take from an ended market (gateway `liquidateMarketCreationShares` pays this plus the
 * trading fees): the pool above ⌈Σᵢ⌈oᵢ·eᵢ/E⌉ / scaler⌉, where oᵢ is the supply not yet liquidated
 * (`outstanding`, default all of it). Rounded up, the reserve covers every remaining holder in any
 * order; already liquidated shares were paid from the pool and are not reserved again.
 */
export function creatorLiquidationValue(m: LmsrMarket, outstanding: readonly bigint[] = m.supplies): bigint {
  if (outstanding.length !== m.outcomeCount) fail('ArrayLengthMismatch')
  let reserve = 0n
  outstanding.forEach((o, i) => {
    reserve += mulDivUp(o, m.exps[i] as bigint, m.expSum)
  })
  reserve = mulDivUp(reserve, 1n, tokenScaler(m.tokenDecimals))
  return m.pool > reserve ? m.pool - reserve : 0n
}
