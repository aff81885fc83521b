// The wallet's portfolio: every market where it holds shares, each held outcome valued by what the
// wallet could take out now, by the exact maths and the market's status — the sell quote while trading
// is open, the redemption on a settled market, the liquidation at frozen prices on an expired or failed
// one (exit-value.ts) — against its cost basis from its own trade events (average cost: a sell takes
// out its share of the cost and realizes the difference). Pure, so any client values a position alike.
import { MarketMathError } from './errors.ts'
import { exitActionOf, quoteLiquidate, quoteRedeem, type ExitAction, type ExitQuote } from './exit-value.ts'
import { mathsMarket, sellMaths } from './market-maths.ts'
import { MARKET_KINDS } from './market-kinds.ts'
import { MARKET_STATUS, type MarketSnapshot } from './market-snapshot.ts'

/** One of the wallet's own trades (a GatewayBuy / GatewaySell it sent), in chain order. */
export interface OwnTrade {
  side: 'buy' | 'sell'
  outcome: number
  /** wei-shares */
  shares: bigint
  /** base units paid (buy, fee included) or received (sell, fee deducted) */
  tokens: bigint
}

/** The cost of the shares of one outcome still held, and what sells of it realized. */
export interface CostBasis {
  /** shares the trades leave (equals the balance unless shares were transferred) */
  shares: bigint
  /** base units paid for those shares */
  cost: bigint
  /** Σ (proceeds − the cost a sell took out), base units, signed */
  realized: bigint
}

/** Replays the wallet's trades of one market: per outcome, the average-cost basis. */
export function costBasis(trades: readonly OwnTrade[], outcomeCount: number): CostBasis[] {
  const basis = Array.from({ length: outcomeCount }, () => ({ shares: 0n, cost: 0n, realized: 0n }))
  for (const t of trades) {
    const b = basis[t.outcome]
    if (!b) continue
    if (t.side === 'buy') {
      b.shares += t.shares
      b.cost += t.tokens
      continue
    }
    // shares received by transfer have no cost here: selling more than bought takes out all of it
    const removed = t.shares >= b.shares ? b.cost : (b.cost * t.shares) / b.shares
    b.realized += t.tokens - removed
    b.cost -= removed
    b.shares = t.shares >= b.shares ? 0n : b.shares - t.shares
  }
  return basis
}

/**
 * Why a holding has no value now: 'awaiting-settlement' (trading closed, no exit until the oracle
 * settles or the settlement deadline passes), 'reading' (a settled DPM market's unclaimed winning
 * shares are not read yet), or the revert the exit would hit (its error name and arguments).
 */
export type Unvalued =
  | { reason: 'awaiting-settlement' }
  | { reason: 'reading' }
  | { reason: 'revert'; errorName: string; args: readonly bigint[] }

export interface HeldOutcome {
  outcome: number
  /** wei-shares held */
  shares: bigint
  /** base units the wallet would receive for these shares now; null with `unvalued` set otherwise */
  value: bigint | null
  unvalued: Unvalued | null
  /** cost basis of the held shares (0 for shares not bought by this wallet) */
  cost: bigint
}

export interface PortfolioEntry {
  market: MarketSnapshot
  /** how the wallet leaves this market now: null while open (sell) or awaiting settlement */
  action: ExitAction | null
  /** only the outcomes with shares, in order */
  holdings: HeldOutcome[]
  /** the redeem / liquidate quote for the whole position, when `action` is set */
  exit: ExitQuote | null
  /** the position's value; null when any held outcome is unvalued */
  value: bigint | null
  cost: bigint
  /** value − cost; null when value is */
  pnl: bigint | null
  /** pnl / cost in basis points; null without a cost or a value */
  pnlBps: number | null
  realized: bigint
}

export interface PortfolioInput {
  market: MarketSnapshot
  /** the wallet's shares per outcome (wei-shares) */
  shares: readonly bigint[]
  /** the wallet's own trades of this market, chain order */
  trades: readonly OwnTrade[]
  /**
   * Settled DPM only: the market's own balance of its winning outcome (see quoteRedeem); null while
   * not read. Ignored otherwise.
   */
  marketOwnWinningShares: bigint | null
}

function revertOf(err: unknown): Unvalued {
  if (err instanceof MarketMathError) return { reason: 'revert', errorName: err.name, args: err.args }
  throw err
}

const unvaluedOf = (q: ExitQuote): Unvalued | null =>
  q.ok ? null : { reason: 'revert', errorName: q.errorName, args: q.args }

/** What each held outcome is worth now, and the whole position's exit quote. */
function valueHoldings(
  p: PortfolioInput,
  held: number[],
): { values: { value: bigint | null; unvalued: Unvalued | null }[]; exit: ExitQuote | null } {
  const m = p.market
  const action = exitActionOf(m.status)
  if (action === 'liquidate') {
    // each outcome alone (its own frozen-price value), and the whole holding as `liquidate` pays it
    const values = held.map((i) => {
      const q = quoteLiquidate(
        m,
        p.shares.map((s, j) => (j === i ? s : 0n)),
      )
      return { value: q.ok ? q.tokensOut : null, unvalued: unvaluedOf(q) }
    })
    return { values, exit: quoteLiquidate(m, p.shares) }
  }
  if (action === 'redeem') {
    const winner = Number(m.winningOutcomeIdx)
    const own = MARKET_KINDS[m.kind].redeemNeedsOwnShares ? p.marketOwnWinningShares : 0n
    const exit = held.includes(winner) && own !== null ? quoteRedeem(m, p.shares, own) : null
    const values = held.map((i) => {
      if (i !== winner) return { value: 0n, unvalued: null } // a losing outcome pays nothing
      if (exit === null) return { value: null, unvalued: { reason: 'reading' } as const }
      return { value: exit.ok ? exit.tokensOut : null, unvalued: unvaluedOf(exit) }
    })
    return { values, exit }
  }
  if (m.status !== MARKET_STATUS.open)
    return {
      values: held.map(() => ({ value: null, unvalued: { reason: 'awaiting-settlement' } })),
      exit: null,
    }
  // open: what selling this outcome's whole holding would pay, alone, on the current state
  const maths = mathsMarket(m)
  const values = held.map((i) => {
    try {
      return { value: sellMaths(maths, i, p.shares[i]!).tokens, unvalued: null }
    } catch (err) {
      return { value: null, unvalued: revertOf(err) }
    }
  })
  return { values, exit: null }
}

export const pnlBpsOf = (pnl: bigint | null, cost: bigint): number | null =>
  pnl === null || cost === 0n ? null : Number((pnl * 10_000n) / cost)

/** The portfolio entry of one market, or null when the wallet holds none of its shares. */
export function portfolioEntry(p: PortfolioInput): PortfolioEntry | null {
  const held = p.shares.flatMap((s, i) => (s > 0n ? [i] : []))
  if (held.length === 0) return null
  const basis = costBasis(p.trades, p.market.outcomeCount)
  const { values, exit } = valueHoldings(p, held)
  const holdings = held.map((i, n) => ({
    outcome: i,
    shares: p.shares[i]!,
    ...values[n]!,
    cost: basis[i]?.cost ?? 0n,
  }))
  const cost = holdings.reduce((sum, h) => sum + h.cost, 0n)
  // the whole position's exit pays one sum (redeem / liquidate), which is what the wallet receives
  const value =
    exit?.ok === true
      ? exit.tokensOut
      : holdings.every((h) => h.value !== null)
        ? holdings.reduce((sum, h) => sum + h.value!, 0n)
        : null
  const pnl = value === null ? null : value - cost
  return {
    market: p.market,
    action: exitActionOf(p.market.status),
    holdings,
    exit,
    value,
    cost,
    pnl,
    pnlBps: pnlBpsOf(pnl, cost),
    realized: basis.reduce((sum, b) => sum + b.realized, 0n),
  }
}

export interface PortfolioTotals {
  /** Σ value over the valued entries */
  value: bigint
  /** Σ cost over the valued entries (so value − cost compares like with like) */
  cost: bigint
  pnl: bigint
  pnlBps: number | null
  /** Σ realized over every entry */
  realized: bigint
  /** entries left out of value, cost and pnl because they have no value now */
  unvalued: number
}

export function portfolioTotals(entries: readonly PortfolioEntry[]): PortfolioTotals {
  const valued = entries.filter((e) => e.value !== null)
  const value = valued.reduce((sum, e) => sum + e.value!, 0n)
  const cost = valued.reduce((sum, e) => sum + e.cost, 0n)
  return {
    value,
    cost,
    pnl: value - cost,
    pnlBps: pnlBpsOf(value - cost, cost),
    realized: entries.reduce((sum, e) => sum + e.realized, 0n),
    unvalued: entries.length - valued.length,
  }
}

/** The entries a batch redeem sends: settled markets whose redeem quote pays something. */
export function redeemableEntries(entries: readonly PortfolioEntry[]): (PortfolioEntry & {
  exit: ExitQuote & { ok: true }
})[] {
  return entries.filter(
    (e): e is PortfolioEntry & { exit: ExitQuote & { ok: true } } =>
      e.action === 'redeem' && e.exit?.ok === true && e.exit.tokensOut > 0n,
  )
}
