// "Your position" on a market page: the shares the wallet holds per outcome and, once the market has
// ended, the way out — Redeem on a settled market, Liquidate on an expired or failed one — with the
// exact payout from the maths on the button and in the confirmation, then what was received.
import type { CollateralDeployment } from '../../host/chain/deployment.ts'
import { revertSentence } from '../../host/chain/error-sentence.ts'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import { txBusy } from '../../host/chain/tx-state.ts'
import {
  exitActionOf,
  heldOutcomes,
  quoteLiquidate,
  quoteRedeem,
  type ExitQuote,
} from '../../core/markets/exit-value.ts'
import {
  MARKET_STATUS,
  outcomeLabel,
  type MarketPosition,
  type MarketSnapshot,
} from '../../core/markets/market-snapshot.ts'
import { formatShares } from '../../core/markets/share-amount.ts'
import { Card } from '../common/Card.tsx'
import { TxStatus } from '../wallet/TxStatus.tsx'
import { useExit } from './use-exit.ts'
import { useMarketOwnWinningShares } from './use-market-own-winning-shares.ts'
import { TableScroll } from '../common/TableScroll.tsx'

export interface PositionPanelProps {
  market: MarketSnapshot
  position: MarketPosition | null
  balance: bigint | null
  token: CollateralDeployment
}

export function PositionPanel({ market: m, position, balance, token }: PositionPanelProps) {
  const { tx, sending, received, submit: sendExit } = useExit(m, token)
  const own = useMarketOwnWinningShares(m)
  const action = exitActionOf(m.status)
  const shares = position?.shares ?? m.supplies.map(() => 0n)
  const amountOf = (v: bigint, digits = 6) =>
    formatTokenAmount(v, token.decimals, { maxFractionDigits: digits, symbol: token.symbol })

  let quote: ExitQuote | null = null
  let problem: string | null = null
  if (action !== null) {
    if (!position) problem = 'Connect a wallet on this chain to see what you can take out.'
    else if (action === 'redeem') {
      if (own === null) problem = 'Reading the unclaimed winning shares…'
      else if (!own.ok) problem = own.error
      else quote = quoteRedeem(m, shares, own.shares)
    } else if (heldOutcomes(shares).length === 0)
      problem = 'You hold no shares of this market: nothing to liquidate.'
    else quote = quoteLiquidate(m, shares)
    if (quote && !quote.ok)
      problem = revertSentence(quote.errorName, quote.args, {
        token: { symbol: token.symbol, decimals: token.decimals },
      })
  }
  const ready = quote?.ok ? quote : null
  const busy = sending || txBusy(tx)
  const verb = action === 'redeem' ? 'Redeem' : 'Liquidate'

  const submit = () => sendExit(ready)

  return (
    <Card title="Your position" testId="position-panel" className="mk-position">
      <TableScroll label="Your shares by outcome">
        <table className="table mk-position-shares">
          <tbody>
            {shares.map((s, i) => (
              <tr key={i} data-testid="position-row" data-outcome={i} data-shares={s.toString()}>
                <td>
                  {outcomeLabel(m, i)}
                  {action === 'redeem' && BigInt(i) === m.winningOutcomeIdx && (
                    <span className="pill tone-good mk-winner">won</span>
                  )}
                </td>
                <td className="num">
                  {s > 0n ? `${formatShares(s)} shares` : <span className="muted">—</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="mk-balance muted">
        Balance{' '}
        <span data-testid="position-balance" data-units={balance?.toString() ?? ''}>
          {balance === null ? '— (no wallet on this chain)' : amountOf(balance, 2)}
        </span>
      </p>
      {action === null ? (
        <p className="hint">
          {m.status === MARKET_STATUS.open
            ? 'Trading is open: buy or sell in the trade panel.'
            : 'Trading has closed; once the oracle settles, winning shares redeem here (or, if it never does, every share liquidates at its frozen price).'}
        </p>
      ) : (
        <>
          {problem && (
            <p className="hint mk-problem" data-testid="exit-problem">
              {problem}
            </p>
          )}
          <div className="button-row">
            <button
              type="button"
              className="btn btn-primary"
              data-testid="exit-submit"
              data-action={action}
              data-units={ready?.tokensOut.toString() ?? ''}
              disabled={!ready || busy}
              onClick={() => void submit()}
            >
              {busy
                ? `${verb === 'Redeem' ? 'Redeeming' : 'Liquidating'}…`
                : ready
                  ? `${verb} for ${amountOf(ready.tokensOut)}`
                  : verb}
            </button>
          </div>
        </>
      )}
      <TxStatus state={tx} testId="exit-status" what={verb} />
      {received !== null && (
        <p className="mk-received" data-testid="exit-received" data-units={received.toString()}>
          Received {amountOf(received)}.
        </p>
      )}
    </Card>
  )
}
