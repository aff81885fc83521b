/**
 * Dynamic parimutuel market (DPM) maths, the executable spec of the tabswarm DPM contracts and of
 * Delphi's app markets (research/delphi.md §3, §5, §9). Pure bigint; every result is an integer
 * and every rounding goes against the trader (or the share holder / creator being paid).
 *
 * Units
 * - qᵢ  `supplies[i]`: shares of outcome i in wei-shares (18 decimals), the creator's locked shares
 *   included. S = Σ qᵢ² (`sumTerm`, 36 decimals, the contract's `sumTerm36`).
 * - k: 18-decimal fixed point (1e18 = 1). tradingFee: 18-decimal fraction (1e18 = 100 %).
 * - Tokens (`pool`, `tradingFees`, quotes): collateral base units (10^decimals = 1 token).
 *   scaler = 10^(18 − decimals) turns 18-decimal token amounts into base units.
 *
 * Formulas (exact integer versions and their rounding next to each function)
 * - Cost C(q) = k·√S / (1e18·scaler) tokens; `pool` tracks it (pool ≥ C(q) at all times).
 * - Buy Δ of i:  S' = S + Δ(2qᵢ + Δ);  net = ⌈k·(⌈√S'⌉ − ⌊√S⌋) / (1e18·scaler)⌉;
 *   tokensIn = ⌈net·1e18 / (1e18 − fee)⌉;  pool += net;  tradingFees += tokensIn − net.
 * - Sell Δ of i: S' = S − Δ(2qᵢ − Δ);  gross = ⌊k·(⌊√S⌋ − ⌈√S'⌉) / (1e18·scaler)⌋;
 *   tokensOut = ⌊gross·(1e18 − fee) / 1e18⌋;  pool −= gross;  tradingFees += gross − tokensOut.
 * - Spot price pᵢ = ⌊k·qᵢ / (⌊√S⌋·scaler)⌋ base units per whole share (1e18 wei-shares);
 *   implied probability πᵢ = ⌊qᵢ²·1e18 / S⌋ (Σπ ∈ [1e18 − n + 1, 1e18]); Σpᵢ ∈ [k, k√n]: price ≠ probability.
 * - Creation with deposit D over n outcomes: sharesPerOutcome = ⌊D·scaler·1e18 / (k·n)⌋ to the creator
 *   (locked in the market); initialPool = ⌈D·1e18 / ⌊√(n·1e36)⌋⌉ ≈ D/√n; refund = D − initialPool.
 * - Settlement on winner w: creatorReward = ⌊pool·creatorShares/q_w⌋ paid first; each redeem of s
 *   winning shares pays ⌊pool·s / unclaimedWinningShares⌋ (the last redeemer gets the rest exactly).
 * - Liquidation (expired/failed) at frozen prices: ⌊k·Σ(sᵢ·qᵢ) / (⌈√S⌉·1e18·scaler)⌋; shares are
 *   transferred in, not burned, so qᵢ and S stay frozen and the order of liquidations is irrelevant.
 */
import { fail } from '../errors.ts'
import { liquidateWith } from '../liquidation.ts'
import { checkOutcome } from '../outcome-index.ts'
import { buyExactOutWith, sellExactInWith } from '../slippage.ts'
import { WAD, assertUint256, mulDivDown, mulDivUp, pow10, sqrtDown, sqrtUp } from '../fixed-point.ts'

// ——— Delphi DPM constants (research/delphi.md §3, §5) ———
export const MIN_OUTCOME_COUNT = 2
export const MAX_OUTCOME_COUNT = 20
export const MIN_K = 1n * WAD
export const MAX_K = 100n * WAD
export const MIN_TRADING_FEE = 5n * 10n ** 15n // 0.5 %
export const MAX_TRADING_FEE = 5n * 10n ** 16n // 5 %
export const MIN_TOKEN_DECIMALS = 6
export const MAX_TOKEN_DECIMALS = 18
/** Smallest trade size and smallest non-zero outcome supply, in wei-shares. */
export const MIN_SHARES_DELTA = 10n ** 6n
/** 1 and 1,000,000 whole tokens. */
export const MIN_INITIAL_DEPOSIT_TOKENS = 1n
export const MAX_INITIAL_DEPOSIT_TOKENS = 1_000_000n

export interface DpmMarket {
  outcomeCount: number
  k: bigint
  tradingFee: bigint
  tokenDecimals: number
  /** 18-decimal wei-shares per outcome, creator's locked shares included. */
  supplies: bigint[]
  /** Collateral base units backing the shares (excludes fees and refund). */
  pool: bigint
  /** Collateral base units of fees collected by trades. */
  tradingFees: bigint
  /** Σ supplies², kept incrementally like the contract's `sumTerm36`. */
  sumTerm: bigint
  /** Shares per outcome minted to the creator at creation (locked in the market). */
  creatorSharesPerOutcome: bigint
  initialDeposit: bigint
  initialPool: bigint
  /** Part of the deposit returned to the creator at settlement. */
  refund: bigint
}

/** 10^(18 − decimals): 18-decimal token amounts → base units. */
export function tokenScaler(tokenDecimals: number): bigint {
  return pow10(18 - tokenDecimals)
}

/** MIN_TOKENS_DELTA = 0.01 token in base units. */
export function minTokensDelta(tokenDecimals: number): bigint {
  return pow10(tokenDecimals) / 100n
}

/**
 * Creator's initial pool and refund for a deposit (gateway `calculateInitialPoolAndRefund`).
 * initialPool = ⌈D·1e18 / ⌊√(n·1e36)⌋⌉: the denominator rounds down and the division up, so the pool
 * is never below the exact D/√n (and so never below the cost of the creator's shares): the rounding
 * favours the market over the creator's refund.
 */
export function calculateInitialPoolAndRefund(
  initialDeposit: bigint,
  outcomeCount: number,
): { initialPool: bigint; refund: bigint } {
  assertUint256(initialDeposit)
  const initialPool = mulDivUp(initialDeposit, WAD, sqrtDown(BigInt(outcomeCount) * WAD * WAD))
  return { initialPool, refund: initialDeposit - initialPool }
}

export function createDpmMarket(p: {
  outcomeCount: number
  k: bigint
  tradingFee: bigint
  tokenDecimals: number
  initialDeposit: bigint
}): DpmMarket {
  const { outcomeCount, k, tradingFee, tokenDecimals, initialDeposit } = p
  if (!Number.isInteger(tokenDecimals) || tokenDecimals < MIN_TOKEN_DECIMALS)
    fail('TokenDecimalsTooLow', BigInt(Math.trunc(tokenDecimals)))
  if (tokenDecimals > MAX_TOKEN_DECIMALS) fail('TokenDecimalsTooHigh', BigInt(tokenDecimals))
  if (!Number.isInteger(outcomeCount) || outcomeCount < MIN_OUTCOME_COUNT)
    fail('OutcomeCountTooLow', BigInt(Math.trunc(outcomeCount)), BigInt(MIN_OUTCOME_COUNT))
  if (outcomeCount > MAX_OUTCOME_COUNT)
    fail('OutcomeCountTooHigh', BigInt(outcomeCount), BigInt(MAX_OUTCOME_COUNT))
  if (k < MIN_K) fail('KTooLow', k, MIN_K)
  if (k > MAX_K) fail('KTooHigh', k, MAX_K)
  if (tradingFee < MIN_TRADING_FEE) fail('TradingFeeTooLow', tradingFee, MIN_TRADING_FEE)
  if (tradingFee > MAX_TRADING_FEE) fail('TradingFeeTooHigh', tradingFee, MAX_TRADING_FEE)
  const unit = pow10(tokenDecimals)
  const minDeposit = MIN_INITIAL_DEPOSIT_TOKENS * unit
  const maxDeposit = MAX_INITIAL_DEPOSIT_TOKENS * unit
  if (initialDeposit < minDeposit) fail('InitialDepositTooLow', initialDeposit, minDeposit)
  if (initialDeposit > maxDeposit) fail('InitialDepositTooHigh', initialDeposit, maxDeposit)

  const n = BigInt(outcomeCount)
  const scaler = tokenScaler(tokenDecimals)
  // sharesPerOutcome = ⌊D·scaler·1e18 / (k·n)⌋: rounds down, fewer shares for the creator.
  const shares = mulDivDown(initialDeposit * scaler, WAD, k * n)
  const { initialPool, refund } = calculateInitialPoolAndRefund(initialDeposit, outcomeCount)
  return {
    outcomeCount,
    k,
    tradingFee,
    tokenDecimals,
    supplies: Array.from({ length: outcomeCount }, () => shares),
    pool: initialPool,
    tradingFees: 0n,
    sumTerm: n * shares * shares,
    creatorSharesPerOutcome: shares,
    initialDeposit,
    initialPool,
    refund,
  }
}

function supplyOf(m: DpmMarket, outcome: number): bigint {
  checkOutcome(m, outcome)
  return m.supplies[outcome] as bigint
}

interface BuyResult {
  tokensIn: bigint
  net: bigint
  newSupply: bigint
  newSumTerm: bigint
}

function computeBuy(m: DpmMarket, outcome: number, sharesOut: bigint): BuyResult {
  const q = supplyOf(m, outcome)
  assertUint256(sharesOut)
  if (sharesOut === 0n) fail('ZeroSharesOut')
  if (sharesOut < MIN_SHARES_DELTA) fail('SharesOutBelowMinDelta', sharesOut, MIN_SHARES_DELTA)
  const newSumTerm = assertUint256(m.sumTerm + sharesOut * (2n * q + sharesOut))
  // Cost difference: new root rounded up, old root rounded down (both against the buyer), then the
  // whole 18-decimal amount rounded up to base units.
  const rootDelta = sqrtUp(newSumTerm) - sqrtDown(m.sumTerm)
  const net = mulDivUp(m.k, rootDelta, WAD * tokenScaler(m.tokenDecimals))
  if (net === 0n) fail('ZeroNetTokensIn')
  // Gross-up by the fee, rounded up: the fee is never less than tradingFee of tokensIn.
  const tokensIn = mulDivUp(net, WAD, WAD - m.tradingFee)
  if (tokensIn === 0n) fail('ZeroTokensIn')
  const minTokens = minTokensDelta(m.tokenDecimals)
  if (tokensIn < minTokens) fail('TokensInBelowMin', tokensIn, minTokens)
  return { tokensIn, net, newSupply: q + sharesOut, newSumTerm }
}

interface SellResult {
  tokensOut: bigint
  gross: bigint
  newSupply: bigint
  newSumTerm: bigint
}

function computeSell(m: DpmMarket, outcome: number, sharesIn: bigint): SellResult {
  const q = supplyOf(m, outcome)
  assertUint256(sharesIn)
  if (sharesIn === 0n) fail('ZeroSharesIn')
  if (sharesIn < MIN_SHARES_DELTA) fail('SharesInBelowMinDelta', sharesIn, MIN_SHARES_DELTA)
  if (sharesIn > q) fail('SharesInExceedSupply', sharesIn, q)
  const newSupply = q - sharesIn
  if (newSupply !== 0n && newSupply < MIN_SHARES_DELTA)
    fail('OutcomeSupplyBelowMinDelta', newSupply, MIN_SHARES_DELTA)
  // S − Δ(2q − Δ) = S − q² + (q − Δ)², exact and never negative.
  const newSumTerm = m.sumTerm - sharesIn * (2n * q - sharesIn)
  // Old root rounded down, new root rounded up (both against the seller). When the two roots
  // cross (a tiny sell on a huge S), the gateway reverts with SqrtOverlap rather than underflow.
  const oldRoot = sqrtDown(m.sumTerm)
  const newRoot = sqrtUp(newSumTerm)
  if (newRoot > oldRoot) fail('SqrtOverlap')
  const gross = mulDivDown(m.k, oldRoot - newRoot, WAD * tokenScaler(m.tokenDecimals))
  if (gross === 0n) fail('GrossTokensOutNotPositive')
  if (gross > m.pool) fail('GrossTokensOutExceedMarketPool')
  // Fee deducted, payout rounded down: the fee is never less than tradingFee of gross.
  const tokensOut = mulDivDown(gross, WAD - m.tradingFee, WAD)
  if (tokensOut === 0n) fail('ZeroTokensOut')
  // A sell must pay at least MIN_TOKENS_DELTA (0.01 token); the interface's SellTooSmall().
  if (tokensOut < minTokensDelta(m.tokenDecimals)) fail('SellTooSmall')
  return { tokensOut, gross, newSupply, newSumTerm }
}

/** Tokens (base units, fee included) to buy exactly `sharesOut` wei-shares of `outcome`. */
export function quoteBuy(m: DpmMarket, outcome: number, sharesOut: bigint): bigint {
  return computeBuy(m, outcome, sharesOut).tokensIn
}

/** Tokens (base units, fee deducted) paid for selling exactly `sharesIn` wei-shares of `outcome`. */
export function quoteSell(m: DpmMarket, outcome: number, sharesIn: bigint): bigint {
  return computeSell(m, outcome, sharesIn).tokensOut
}

/** Quote with the fee split out: `tokensIn = net + fee`, `net` goes to the pool. */
export function quoteBuyDetailed(
  m: DpmMarket,
  outcome: number,
  sharesOut: bigint,
): { tokensIn: bigint; net: bigint; fee: bigint } {
  const r = computeBuy(m, outcome, sharesOut)
  return { tokensIn: r.tokensIn, net: r.net, fee: r.tokensIn - r.net }
}

/** Quote with the fee split out: `gross = tokensOut + fee` leaves the pool. */
export function quoteSellDetailed(
  m: DpmMarket,
  outcome: number,
  sharesIn: bigint,
): { tokensOut: bigint; gross: bigint; fee: bigint } {
  const r = computeSell(m, outcome, sharesIn)
  return { tokensOut: r.tokensOut, gross: r.gross, fee: r.gross - r.tokensOut }
}

function withSupply(m: DpmMarket, outcome: number, supply: bigint): bigint[] {
  return m.supplies.map((s, i) => (i === outcome ? supply : s))
}

/** Market state after buying exactly `sharesOut` (the input is not modified). */
export function buy(m: DpmMarket, outcome: number, sharesOut: bigint): DpmMarket {
  const r = computeBuy(m, outcome, sharesOut)
  return {
    ...m,
    supplies: withSupply(m, outcome, r.newSupply),
    sumTerm: r.newSumTerm,
    pool: m.pool + r.net,
    tradingFees: m.tradingFees + (r.tokensIn - r.net),
  }
}

/** Market state after selling exactly `sharesIn` (the input is not modified). */
export function sell(m: DpmMarket, outcome: number, sharesIn: bigint): DpmMarket {
  const r = computeSell(m, outcome, sharesIn)
  return {
    ...m,
    supplies: withSupply(m, outcome, r.newSupply),
    sumTerm: r.newSumTerm,
    pool: m.pool - r.gross,
    tradingFees: m.tradingFees + (r.gross - r.tokensOut),
  }
}

/** `buyExactOut` with slippage: reverts `TokensInExceedsMax(tokensIn, maxTokensIn)`. */
export const buyExactOut = (m: DpmMarket, outcome: number, sharesOut: bigint, maxTokensIn: bigint) =>
  buyExactOutWith({ quoteBuy, quoteSell, buy, sell }, m, outcome, sharesOut, maxTokensIn)

/** `sellExactIn` with slippage: reverts `TokensOutBelowMin(tokensOut, minTokensOut)`. */
export const sellExactIn = (m: DpmMarket, outcome: number, sharesIn: bigint, minTokensOut: bigint) =>
  sellExactInWith({ quoteBuy, quoteSell, buy, sell }, m, outcome, sharesIn, minTokensOut)

/** Client-side slippage bounds as the Delphi SDK computes them (floor both; default 200 bps). */
export function maxTokensInWithSlippage(tokensIn: bigint, bps = 200n): bigint {
  return (tokensIn * (10_000n + bps)) / 10_000n
}
export function minTokensOutWithSlippage(tokensOut: bigint, bps = 200n): bigint {
  return (tokensOut * (10_000n - bps)) / 10_000n
}

/** Spot price of one whole share of `outcome`, base units: ⌊k·qᵢ / (⌊√S⌋·scaler)⌋ (as delphi.md specifies). */
export function spotPrice(m: DpmMarket, outcome: number): bigint {
  const q = supplyOf(m, outcome)
  return mulDivDown(m.k, q, sqrtDown(m.sumTerm) * tokenScaler(m.tokenDecimals))
}

export function spotPrices(m: DpmMarket): bigint[] {
  return m.supplies.map((_, i) => spotPrice(m, i))
}

/** Implied probability (1e18 = 1): ⌊qᵢ²·1e18 / S⌋, rounded down. */
export function impliedProbability(m: DpmMarket, outcome: number): bigint {
  const q = supplyOf(m, outcome)
  return mulDivDown(q * q, WAD, m.sumTerm)
}

export function impliedProbabilities(m: DpmMarket): bigint[] {
  return m.supplies.map((_, i) => impliedProbability(m, i))
}

/** Current cost C(q) = k·√S/(1e18·scaler), rounded down (what all outstanding shares are worth at spot). */
export function marketCost(m: DpmMarket): bigint {
  return mulDivDown(m.k, sqrtDown(m.sumTerm), WAD * tokenScaler(m.tokenDecimals))
}

/**
 * What `shares` of `outcome` would redeem for if it won and nothing else changed:
 * ⌊pool·shares/qᵢ⌋, rounded down (0 when the outcome has no supply).
 */
export function payoutIfWins(m: DpmMarket, outcome: number, shares: bigint): bigint {
  const q = supplyOf(m, outcome)
  if (q === 0n) return 0n
  return mulDivDown(m.pool, shares, q)
}

// ——— Settlement and redemption ———

export interface DpmSettlement {
  winningOutcome: number
  /** Paid to the creator out of the pool for its locked winning shares: ⌊pool·creatorShares/q_w⌋. */
  marketCreatorReward: bigint
  refund: bigint
  /** Creator's part of tradingFees: tradingFees − protocolFees. */
  marketCreatorTradingFeesCut: bigint
  /** Fee recipient's part: ⌊tradingFees·protocolFeeShare/1e18⌋ (rounded down, in the creator's favour). */
  protocolFees: bigint
  /** Pool left for the other winners after the creator reward. */
  pool: bigint
  /** Winning shares not yet redeemed (q_w − creatorShares). */
  unclaimedWinningShares: bigint
}

/** Settlement values when `winningOutcome` wins; `protocolFeeShare` is the fee recipient's share (1e18 = 100 %). */
export function settle(m: DpmMarket, winningOutcome: number, protocolFeeShare = 0n): DpmSettlement {
  if (!Number.isInteger(winningOutcome) || winningOutcome < 0 || winningOutcome >= m.outcomeCount)
    fail('WinningOutcomeOutOfBounds')
  const reward = marketCreatorWinningSharesSettlementValue(m, winningOutcome)
  const protocolFees = mulDivDown(m.tradingFees, protocolFeeShare, WAD)
  return {
    winningOutcome,
    marketCreatorReward: reward,
    refund: m.refund,
    marketCreatorTradingFeesCut: m.tradingFees - protocolFees,
    protocolFees,
    pool: m.pool - reward,
    unclaimedWinningShares: (m.supplies[winningOutcome] as bigint) - m.creatorSharesPerOutcome,
  }
}

/** Gateway `marketCreatorWinningSharesSettlementValue`: ⌊pool·creatorShares/q_w⌋ (rounded down). */
export function marketCreatorWinningSharesSettlementValue(m: DpmMarket, outcome: number): bigint {
  const q = supplyOf(m, outcome)
  if (q === 0n) return 0n
  return mulDivDown(m.pool, m.creatorSharesPerOutcome, q)
}

/**
 * Redeem `shares` winning shares: ⌊pool·shares/unclaimed⌋, rounded down; the last redeemer
 * (shares = unclaimed) receives the remaining pool exactly. Reverts `RedeemZeroShares`,
 * `RedeemZeroTokensOut`, `SharesInExceedSupply`.
 */
export function redeem(s: DpmSettlement, shares: bigint): { settlement: DpmSettlement; tokensOut: bigint } {
  assertUint256(shares)
  if (shares === 0n) fail('RedeemZeroShares')
  if (shares > s.unclaimedWinningShares) fail('SharesInExceedSupply', shares, s.unclaimedWinningShares)
  const tokensOut = mulDivDown(s.pool, shares, s.unclaimedWinningShares)
  if (tokensOut === 0n) fail('RedeemZeroTokensOut')
  return {
    settlement: { ...s, pool: s.pool - tokensOut, unclaimedWinningShares: s.unclaimedWinningShares - shares },
    tokensOut,
  }
}

// ——— Liquidation (expired / failed markets) ———

/**
 * Value of a holding `shares[i]` (per outcome) at the frozen prices: ⌊k·Σ(sᵢ·qᵢ) / (⌈√S⌉·1e18·scaler)⌋.
 * √S rounds up and the quotient down, both against the holder, so the values of all holdings sum
 * to at most C(q) ≤ pool in any order.
 */
export function liquidationValue(m: DpmMarket, shares: readonly bigint[]): bigint {
  if (shares.length !== m.outcomeCount) fail('ArrayLengthMismatch')
  let dot = 0n
  shares.forEach((s, i) => {
    assertUint256(s)
    dot += s * (m.supplies[i] as bigint)
  })
  if (dot === 0n) return 0n
  return mulDivDown(m.k, dot, sqrtUp(m.sumTerm) * WAD * tokenScaler(m.tokenDecimals))
}

/**
 * Gateway `liquidate(m, outcomeIndices)` for a holder of `balances` (per outcome): every listed index
 * must hold shares (`ZeroSharesIn`), the list must not be empty (`EmptyOutcomeIndices`). Returns
 * the shares taken in per index and the total paid; the market's pool shrinks by that total,
 * supplies and S stay frozen.
 */
export function liquidate(
  m: DpmMarket,
  balances: readonly bigint[],
  outcomeIndices: readonly number[],
): { market: DpmMarket; sharesIn: bigint[]; totalTokensOut: bigint } {
  return liquidateWith(m, balances, outcomeIndices, liquidationValue)
}

/** Gateway `marketCreatorTotalSharesLiquidationValue`: the creator's locked shares at frozen prices. */
export function marketCreatorTotalSharesLiquidationValue(m: DpmMarket): bigint {
  return liquidationValue(
    m,
    m.supplies.map(() => m.creatorSharesPerOutcome),
  )
}
