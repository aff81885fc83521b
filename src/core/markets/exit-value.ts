// What leaving an ended market pays, by the same maths as the gateway: redeeming the winning shares of
// a settled market, or liquidating every held outcome of an expired or failed one at its frozen prices
// (research/delphi.md §2–3). The CLI and the tab both decide with these, so they agree with each other
// and with the chain to the last unit.
import { MarketMathError } from './errors.ts'
import { liquidateMaths, mathsMarket, redeemMaths, type MathsFields } from './market-maths.ts'
import { MARKET_STATUS, type MarketSnapshot } from './market-snapshot.ts'

export type ExitAction = 'redeem' | 'liquidate'

/** settled → redeem; expired or failed → liquidate; open or awaiting settlement → none (trade or wait). */
export function exitActionOf(status: number): ExitAction | null {
  if (status === MARKET_STATUS.settled) return 'redeem'
  if (status === MARKET_STATUS.expired || status === MARKET_STATUS.failed) return 'liquidate'
  return null
}

/** The outcomes with shares, in order: exactly what `liquidate` must be given (a zero one reverts). */
export function heldOutcomes(shares: readonly bigint[]): number[] {
  return shares.flatMap((s, i) => (s > 0n ? [i] : []))
}

export type ExitQuote =
  | { ok: true; action: ExitAction; outcomes: number[]; sharesIn: bigint[]; tokensOut: bigint }
  | { ok: false; action: ExitAction; errorName: string; args: readonly bigint[] }

type ExitMarket = MathsFields & Pick<MarketSnapshot, 'kind' | 'winningOutcomeIdx'>

function attempt(action: ExitAction, run: () => Omit<ExitQuote & { ok: true }, 'ok' | 'action'>): ExitQuote {
  try {
    return { ok: true, action, ...run() }
  } catch (err) {
    if (err instanceof MarketMathError) return { ok: false, action, errorName: err.name, args: err.args }
    throw err
  }
}

/**
 * What `redeem` pays a holder of `shares` on a settled market read after settlement (its pool is
 * already net of the creator's reward and of earlier redemptions). DPM pays ⌊pool·s/unclaimed⌋, where
 * unclaimed is the winning supply less `marketOwnWinningShares`, the market's own balance of the
 * winning outcome: redeemed shares and the creator's locked ones are transferred to the market, not
 * burned. LMSR pays one token per share, ⌊s/scaler⌋.
 */
export function quoteRedeem(
  m: ExitMarket,
  shares: readonly bigint[],
  marketOwnWinningShares: bigint,
): ExitQuote {
  const w = Number(m.winningOutcomeIdx)
  return attempt('redeem', () => {
    const held = shares[w] ?? 0n
    if (held === 0n) throw new MarketMathError('RedeemZeroShares')
    const winningSupply = m.supplies[w] ?? 0n
    const state = { pool: m.pool, refund: m.refund, winningSupply, marketOwnWinningShares }
    const tokensOut = redeemMaths(mathsMarket(m), state, w, held)
    return { outcomes: [w], sharesIn: [held], tokensOut }
  })
}

/** What `liquidate` pays for every outcome held of an expired or failed market (`liquidateWith`). */
export function quoteLiquidate(m: ExitMarket, shares: readonly bigint[]): ExitQuote {
  const outcomes = heldOutcomes(shares)
  return attempt('liquidate', () => {
    const { sharesIn, totalTokensOut } = liquidateMaths(mathsMarket(m), shares, outcomes)
    return { outcomes, sharesIn, tokensOut: totalTokensOut }
  })
}
