// The trade panel of a market: buy exact shares or sell exact shares of one outcome, amount presets,
// a live quote from the local maths on the latest chain state (cost or proceeds, average price, price
// impact, fee, payout if it wins), slippage in basis points, then approval (when needed) and the trade.
import { useState } from 'react'
import type { CollateralDeployment } from '../../host/chain/deployment.ts'
import { errorSentence, revertSentence } from '../../host/chain/error-sentence.ts'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import { TX_IDLE, txBusy, type TxState } from '../../host/chain/tx-state.ts'
import { formatBpsPercent, formatPrice, formatProbability } from '../../core/markets/market-format.ts'
import { outcomeLabel, type MarketPosition, type MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import { formatShares, parseDecimalAmount, sharesInputText } from '../../core/markets/share-amount.ts'
import { tradeProblem } from '../../core/markets/trade-checks.ts'
import {
  DEFAULT_SLIPPAGE_BPS,
  quoteTrade,
  slippageProblem,
  type QuoteResult,
  type TradeSide,
} from '../../core/markets/trade-quote.ts'
import { Card } from '../common/Card.tsx'
import { TxStatus } from '../wallet/TxStatus.tsx'
import { runTrade } from '../../host/markets/trade-actions.ts'

const BUY_PRESETS = ['1', '10', '50', '100']
const SELL_FRACTIONS: [string, bigint][] = [
  ['25 %', 4n],
  ['50 %', 2n],
  ['All', 1n],
]

export interface TradePanelProps {
  market: MarketSnapshot
  position: MarketPosition | null
  balance: bigint | null
  token: CollateralDeployment
  outcome: number
  onOutcome: (i: number) => void
}

export function TradePanel({ market: m, position, balance, token, outcome, onOutcome }: TradePanelProps) {
  const [side, setSide] = useState<TradeSide>('buy')
  const [amountText, setAmountText] = useState('10')
  const [slippageText, setSlippageText] = useState(String(DEFAULT_SLIPPAGE_BPS))
  const [approval, setApproval] = useState<TxState>(TX_IDLE)
  const [trade, setTrade] = useState<TxState>(TX_IDLE)
  const [sending, setSending] = useState(false)
  const [unlimited, setUnlimited] = useState(false)

  const held = position?.shares[outcome] ?? 0n
  const amount = parseDecimalAmount(amountText)
  const slippageBps = Number(slippageText)
  const slippageError =
    slippageText.trim() === '' ? 'Enter a slippage in basis points.' : slippageProblem(slippageBps)
  const result: QuoteResult | null =
    amount.ok && !slippageError ? quoteTrade(m, { side, outcome, shares: amount.value, slippageBps }) : null
  const ctx = { token: { symbol: token.symbol, decimals: token.decimals } }
  const quoteError = !amount.ok
    ? amount.error
    : (slippageError ?? (result && !result.ok ? revertSentence(result.errorName, result.args, ctx) : null))
  const quote = result?.ok ? result.quote : null
  const problem = quote
    ? tradeProblem(quote, { status: m.status, balance, held, outcomeLabel: outcomeLabel(m, outcome), token })
    : null
  const busy = sending || txBusy(approval) || txBusy(trade)
  const amountOf = (v: bigint, digits = 4) =>
    formatTokenAmount(v, token.decimals, { maxFractionDigits: digits, symbol: token.symbol })

  const submit = async () => {
    if (!quote) return
    setSending(true)
    setApproval(TX_IDLE)
    setTrade(TX_IDLE)
    try {
      await runTrade({
        market: m,
        quote,
        slippageBps,
        allowance: position?.allowance ?? 0n,
        unlimitedApproval: unlimited,
        token,
        onApproval: setApproval,
        onTrade: setTrade,
      })
    } catch (err) {
      setTrade({ phase: 'failed', error: errorSentence(err) })
    } finally {
      setSending(false)
    }
  }

  return (
    <Card title="Trade" testId="trade-panel" className="mk-trade">
      <div className="mk-side" role="group" aria-label="Side">
        {(['buy', 'sell'] as const).map((s) => (
          <button
            key={s}
            type="button"
            className={`btn mk-side-${s} ${side === s ? 'active' : ''}`}
            aria-pressed={side === s}
            data-testid={`trade-side-${s}`}
            onClick={() => setSide(s)}
          >
            {s === 'buy' ? 'Buy shares' : 'Sell shares'}
          </button>
        ))}
      </div>

      <label className="mk-field">
        <span>Outcome</span>
        <select
          className="select"
          value={outcome}
          data-testid="trade-outcome"
          onChange={(e) => onOutcome(Number(e.target.value))}
        >
          {m.supplies.map((_, i) => (
            <option key={i} value={i}>
              {outcomeLabel(m, i)}
            </option>
          ))}
        </select>
      </label>

      <label className="mk-field">
        <span>Shares {side === 'buy' ? 'to buy' : 'to sell'}</span>
        <input
          className="input"
          inputMode="decimal"
          value={amountText}
          data-testid="trade-amount"
          onChange={(e) => setAmountText(e.target.value)}
        />
      </label>
      <div className="mk-presets">
        {side === 'buy'
          ? BUY_PRESETS.map((p) => (
              <button key={p} type="button" className="btn btn-small" onClick={() => setAmountText(p)}>
                {p}
              </button>
            ))
          : SELL_FRACTIONS.map(([label, div]) => (
              <button
                key={label}
                type="button"
                className="btn btn-small"
                disabled={held === 0n}
                onClick={() => setAmountText(sharesInputText(held / div))}
              >
                {label}
              </button>
            ))}
        <span className="muted mk-held" data-testid="trade-held">
          you hold {formatShares(held)} shares
        </span>
      </div>

      <label className="mk-field">
        <span>Slippage (bps)</span>
        <input
          className="input mk-slippage"
          inputMode="numeric"
          value={slippageText}
          data-testid="trade-slippage"
          onChange={(e) => setSlippageText(e.target.value)}
        />
      </label>

      <dl className="kv mk-quote" data-testid="trade-quote" data-ok={quote ? 'true' : 'false'}>
        <dt>{side === 'buy' ? 'Cost' : 'You receive'}</dt>
        <dd data-testid="quote-tokens" data-units={quote?.tokens.toString() ?? ''}>
          {quote ? amountOf(quote.tokens, 6) : '—'}
        </dd>
        <dt>Average price</dt>
        <dd data-testid="quote-average-price">{quote ? `${amountOf(quote.averagePrice)} per share` : '—'}</dd>
        <dt>Price impact</dt>
        <dd data-testid="quote-impact">
          {quote
            ? `${formatBpsPercent(quote.priceImpactBps)} (${formatPrice(quote.priceBefore, m.priceDecimals, '')} → ${formatPrice(quote.priceAfter, m.priceDecimals, '')})`
            : '—'}
        </dd>
        <dt>Implied probability</dt>
        <dd data-testid="quote-probability">
          {quote
            ? `${formatProbability(quote.probabilityBefore)} → ${formatProbability(quote.probabilityAfter)}`
            : '—'}
        </dd>
        <dt>Fee</dt>
        <dd data-testid="quote-fee">{quote ? amountOf(quote.fee, 6) : '—'}</dd>
        <dt>{side === 'buy' ? 'Maximum cost' : 'Minimum received'}</dt>
        <dd data-testid="quote-bound" data-units={quote?.bound.toString() ?? ''}>
          {quote ? amountOf(quote.bound, 6) : '—'}
        </dd>
        {side === 'buy' && (
          <>
            <dt>Payout if it wins</dt>
            <dd data-testid="quote-payout">
              {quote?.payoutIfWins != null ? amountOf(quote.payoutIfWins) : '—'}
            </dd>
          </>
        )}
      </dl>
      {side === 'buy' && (
        <label className="mk-check muted">
          <input type="checkbox" checked={unlimited} onChange={(e) => setUnlimited(e.target.checked)} />
          Approve the market for any amount (otherwise exactly each buy’s maximum cost)
        </label>
      )}
      <p className="mk-balance muted">
        Balance{' '}
        <span data-testid="trade-balance" data-units={balance?.toString() ?? ''}>
          {balance === null ? '— (no wallet on this chain)' : amountOf(balance, 2)}
        </span>
      </p>
      {(quoteError ?? problem) && (
        <p className="hint mk-problem" data-testid="trade-problem">
          {quoteError ?? problem}
        </p>
      )}

      <div className="button-row">
        <button
          type="button"
          className={`btn btn-primary mk-submit-${side}`}
          data-testid="trade-submit"
          disabled={!quote || problem !== null || busy}
          onClick={() => void submit()}
        >
          {busy
            ? 'Trading…'
            : side === 'buy'
              ? `Buy “${outcomeLabel(m, outcome)}”`
              : `Sell “${outcomeLabel(m, outcome)}”`}
        </button>
      </div>
      <TxStatus state={approval} testId="approval-status" what="Approval" />
      <TxStatus state={trade} testId="trade-status" what={side === 'buy' ? 'Buy' : 'Sell'} />
    </Card>
  )
}
