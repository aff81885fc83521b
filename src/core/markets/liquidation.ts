// Gateway `liquidate(m, outcomeIndices)` for expired and failed markets, common to DPM and LMSR: every
// listed index must hold shares (`ZeroSharesIn`; a repeated index finds its balance already
// transferred in), the list must not be empty (`EmptyOutcomeIndices`), and the payout — the holding's
// value at the frozen prices, by the pricing rule's own `value` — must fit in the pool. Shares are
// transferred into the market, not burned, so supplies and prices stay frozen.
import { fail } from './errors.ts'
import { checkOutcome } from './outcome-index.ts'

export interface LiquidatableMarket {
  outcomeCount: number
  pool: bigint
}

export function liquidateWith<M extends LiquidatableMarket>(
  m: M,
  balances: readonly bigint[],
  outcomeIndices: readonly number[],
  value: (m: M, holding: readonly bigint[]) => bigint,
): { market: M; sharesIn: bigint[]; totalTokensOut: bigint } {
  if (outcomeIndices.length === 0) fail('EmptyOutcomeIndices')
  const holding = Array.from({ length: m.outcomeCount }, () => 0n)
  const sharesIn = outcomeIndices.map((i) => {
    checkOutcome(m, i)
    const b = holding[i] === 0n ? (balances[i] ?? 0n) : 0n
    if (b === 0n) fail('ZeroSharesIn')
    holding[i] = b
    return b
  })
  const totalTokensOut = value(m, holding)
  if (totalTokensOut > m.pool) fail('GrossTokensOutExceedMarketPool')
  return { market: { ...m, pool: m.pool - totalTokensOut }, sharesIn, totalTokensOut }
}
