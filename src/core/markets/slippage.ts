// Trades with the gateway's slippage bounds, for any market maths with the same trading interface
// (DPM and LMSR): the quote is checked against the trader's bound before the state changes.
import { fail } from './errors.ts'

export interface TradingMaths<M> {
  quoteBuy(m: M, outcome: number, sharesOut: bigint): bigint
  quoteSell(m: M, outcome: number, sharesIn: bigint): bigint
  buy(m: M, outcome: number, sharesOut: bigint): M
  sell(m: M, outcome: number, sharesIn: bigint): M
}

/** `buyExactOut` with slippage: reverts `TokensInExceedsMax(tokensIn, maxTokensIn)`. */
export function buyExactOutWith<M>(
  maths: TradingMaths<M>,
  m: M,
  outcome: number,
  sharesOut: bigint,
  maxTokensIn: bigint,
): { market: M; tokensIn: bigint } {
  const tokensIn = maths.quoteBuy(m, outcome, sharesOut)
  if (tokensIn > maxTokensIn) fail('TokensInExceedsMax', tokensIn, maxTokensIn)
  return { market: maths.buy(m, outcome, sharesOut), tokensIn }
}

/** `sellExactIn` with slippage: reverts `TokensOutBelowMin(tokensOut, minTokensOut)`. */
export function sellExactInWith<M>(
  maths: TradingMaths<M>,
  m: M,
  outcome: number,
  sharesIn: bigint,
  minTokensOut: bigint,
): { market: M; tokensOut: bigint } {
  const tokensOut = maths.quoteSell(m, outcome, sharesIn)
  if (tokensOut < minTokensOut) fail('TokensOutBelowMin', tokensOut, minTokensOut)
  return { market: maths.sell(m, outcome, sharesIn), tokensOut }
}
