// One redeem or liquidate from a button: sends the exit through the wallet (exit-actions.ts) and keeps
// what the button and its status line show — the transaction's state, whether it is in flight, and
// what was received. The market page's position panel and the portfolio's entries share it.
import { useState } from 'react'
import type { CollateralDeployment } from '../../host/chain/deployment.ts'
import { errorSentence } from '../../host/chain/error-sentence.ts'
import { TX_IDLE, type TxState } from '../../host/chain/tx-state.ts'
import type { ExitQuote } from '../../core/markets/exit-value.ts'
import type { MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import { runExit } from '../../host/markets/exit-actions.ts'

type ReadyQuote = Extract<ExitQuote, { ok: true }>

export interface ExitButton {
  tx: TxState
  sending: boolean
  /** what the last exit paid, once confirmed */
  received: bigint | null
  /** sends the exit at `quote`; nothing when there is none */
  submit(quote: ReadyQuote | null): Promise<void>
}

export function useExit(market: MarketSnapshot, token: CollateralDeployment): ExitButton {
  const [tx, setTx] = useState<TxState>(TX_IDLE)
  const [sending, setSending] = useState(false)
  const [received, setReceived] = useState<bigint | null>(null)
  const submit = async (quote: ReadyQuote | null) => {
    if (!quote) return
    setSending(true)
    setTx(TX_IDLE)
    setReceived(null)
    try {
      const result = await runExit({ market, quote, token, onState: setTx })
      if (result.ok) setReceived(result.received)
      else setTx({ phase: 'failed', error: result.error })
    } catch (err) {
      setTx({ phase: 'failed', error: errorSentence(err) })
    } finally {
      setSending(false)
    }
  }
  return { tx, sending, received, submit }
}
