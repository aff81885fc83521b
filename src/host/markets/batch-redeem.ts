// Redeems every settled winner of the portfolio, one market after another, each through the wallet
// like a single redemption (the view passes runExit: confirmation with the exact payout, sign,
// receipt). A market that fails — refused, reverted, or thrown — is reported with its sentence and
// the next one still goes.
import type { Address } from 'viem'
import { errorSentence } from '../chain/error-sentence.ts'
import type { TxState } from '../chain/tx-state.ts'
import type { ExitQuote } from '../../core/markets/exit-value.ts'
import type { MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import type { ExitResult } from './exit-actions.ts'

export interface RedeemTarget {
  market: MarketSnapshot
  exit: ExitQuote & { ok: true }
}

export interface BatchRedeemOptions {
  targets: readonly RedeemTarget[]
  /** redeems one market, reporting its transaction's progress */
  redeem: (t: RedeemTarget, onState: (s: TxState) => void) => Promise<ExitResult>
  onState: (market: Address, state: TxState) => void
  onResult: (market: Address, result: ExitResult) => void
}

export async function runBatchRedeem(o: BatchRedeemOptions): Promise<void> {
  for (const t of o.targets) {
    const address = t.market.address
    let result: ExitResult
    try {
      result = await o.redeem(t, (s) => o.onState(address, s))
    } catch (err) {
      result = { ok: false, error: errorSentence(err) }
    }
    if (!result.ok) o.onState(address, { phase: 'failed', error: result.error })
    o.onResult(address, result)
  }
}
