// The edge view (like Delphi's agent toolkit): the trader's own probability of each outcome against
// the market's implied one, the edge (yours − implied), and the trade that moves the market toward
// yours without passing it — buy while you think the outcome is underpriced, sell what you hold when
// you think it is overpriced — quoted by the exact maths, with what the buy is worth under your belief.
// Pure.
import { MarketMathError } from './errors.ts'
import { WAD } from './fixed-point.ts'
import {
  buyMaths,
  mathsMarket,
  mathsPayoutIfWins,
  mathsProbabilities,
  sellMaths,
  type MathsMarket,
} from './market-maths.ts'
import type { MarketSnapshot } from './market-snapshot.ts'

/**
 * Trade sizes are searched in steps of 0.0001 share, so a suggested size is one a person can type
 * (4 decimals, what formatShares shows) and the trade panel quotes the same trade to the unit.
 */
export const EDGE_SHARE_STEP = 10n ** 14n
/** The search gives up past this size (whole shares): beyond it the pool, not the edge, is the limit. */
export const EDGE_MAX_SHARES = 10n ** 9n * WAD

export interface EdgeMove {
  side: 'buy' | 'sell'
  /** wei-shares, a multiple of EDGE_SHARE_STEP */
  shares: bigint
  /** buy: tokens paid (fee included); sell: tokens received (fee deducted); base units */
  tokens: bigint
  /** the outcome's implied probability after the trade (WAD), never past yours */
  probabilityAfter: bigint
  /** buy only: what the shares pay if the outcome wins, on the state after the trade */
  payoutIfWins: bigint | null
  /** buy only: yours·payoutIfWins − tokens, base units, signed (your expected profit) */
  expectedProfit: bigint | null
}

export interface EdgeRow {
  outcome: number
  implied: bigint
  yours: bigint
  /** yours − implied, WAD, signed */
  edge: bigint
  /** null when no trade of at least one step moves toward yours (or there is no edge) */
  move: EdgeMove | null
}

/**
 * The trader's probability of every outcome from the ones they typed (null: not typed): the outcomes
 * left blank share what the typed ones leave of 100 % in proportion to their implied probabilities, so
 * typing 70 % for "No" in a Yes / No market means 30 % for "Yes". Nothing typed: the market's own.
 */
export function completeBeliefs(implied: readonly bigint[], typed: readonly (bigint | null)[]): bigint[] {
  const typedSum = typed.reduce<bigint>((sum, t) => sum + (t ?? 0n), 0n)
  const rest = typedSum >= WAD ? 0n : WAD - typedSum
  const blankImplied = implied.reduce((sum, p, i) => sum + (typed[i] == null ? p : 0n), 0n)
  return implied.map((p, i) => typed[i] ?? (blankImplied === 0n ? 0n : (rest * p) / blankImplied))
}

/** The outcome's probability after trading `shares` (null when the maths refuses the trade). */
function probabilityAfter(
  m: MathsMarket,
  side: 'buy' | 'sell',
  outcome: number,
  shares: bigint,
): bigint | null {
  try {
    const t = (side === 'buy' ? buyMaths : sellMaths)(m, outcome, shares)
    return mathsProbabilities(t.after)[outcome]!
  } catch (err) {
    if (err instanceof MarketMathError) return null
    throw err
  }
}

/**
 * The largest multiple of EDGE_SHARE_STEP up to `limit` whose trade leaves the probability on our side
 * of `target` (a buy raises the outcome's probability, a sell lowers it; both monotonically). The
 * maths refuses trades too small (below the minimum token delta) and too large (past the supply or the
 * pool), so the search starts from the smallest size it accepts.
 */
function largestMove(m: MathsMarket, side: 'buy' | 'sell', outcome: number, target: bigint, limit: bigint) {
  const after = (steps: bigint) => probabilityAfter(m, side, outcome, steps * EDGE_SHARE_STEP)
  const onOurSide = (p: bigint) => (side === 'buy' ? p <= target : p >= target)
  const maxSteps = limit / EDGE_SHARE_STEP
  let lo = 1n
  while (lo <= maxSteps && after(lo) === null) lo *= 2n
  if (lo > maxSteps) lo = maxSteps
  const first = lo === 0n ? null : after(lo)
  if (first === null || !onOurSide(first)) return 0n
  const fits = (steps: bigint): boolean => {
    const p = after(steps)
    return p !== null && onOurSide(p)
  }
  // double up to a size that no longer fits (or the limit), then bisect between the two
  let hi = lo * 2n
  while (hi <= maxSteps && fits(hi)) [lo, hi] = [hi, hi * 2n]
  if (hi > maxSteps) {
    if (fits(maxSteps)) return maxSteps * EDGE_SHARE_STEP
    hi = maxSteps
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (fits(mid)) lo = mid
    else hi = mid
  }
  return lo * EDGE_SHARE_STEP
}

/** The edge of every outcome; `yours[i]` is the trader's probability (WAD), `held[i]` their shares. */
export function edgeRows(s: MarketSnapshot, yours: readonly bigint[], held: readonly bigint[]): EdgeRow[] {
  const m = mathsMarket(s)
  const implied = mathsProbabilities(m)
  return implied.map((p, i) => {
    const mine = yours[i] ?? p
    const row = { outcome: i, implied: p, yours: mine, edge: mine - p, move: null }
    if (mine === p) return row
    const side = mine > p ? 'buy' : 'sell'
    const limit = side === 'buy' ? EDGE_MAX_SHARES : (held[i] ?? 0n)
    const shares = largestMove(m, side, i, mine, limit)
    if (shares === 0n) return row
    const t = (side === 'buy' ? buyMaths : sellMaths)(m, i, shares)
    const payout = side === 'buy' ? mathsPayoutIfWins(t.after, i, shares) : null
    return {
      ...row,
      move: {
        side,
        shares,
        tokens: t.tokens,
        probabilityAfter: mathsProbabilities(t.after)[i]!,
        payoutIfWins: payout,
        expectedProfit: payout === null ? null : (payout * mine) / WAD - t.tokens,
      },
    }
  })
}
