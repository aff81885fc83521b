// The portfolio (#/markets/portfolio): every market where the wallet holds shares, each held outcome
// with its shares, what it is worth now (sell quote, redemption or liquidation by the market's status,
// from the exact maths), its cost from the wallet's own trades and the P&L; totals; the way out of each
// ended market; and one button that redeems every settled winner, with a result per market.
import { useState } from 'react'
import type { Address } from 'viem'
import type { CollateralDeployment } from '../../host/chain/deployment.ts'
import { revertSentence } from '../../host/chain/error-sentence.ts'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import { TX_IDLE, txBusy, type TxState } from '../../host/chain/tx-state.ts'
import { formatBpsPercent } from '../../core/markets/market-format.ts'
import { marketTitle, outcomeLabel } from '../../core/markets/market-snapshot.ts'
import { statusLabel } from '../../core/markets/market-status.ts'
import { redeemableEntries, type PortfolioEntry, type Unvalued } from '../../core/markets/portfolio.ts'
import { formatShares } from '../../core/markets/share-amount.ts'
import { Card } from '../common/Card.tsx'
import { TxStatus } from '../wallet/TxStatus.tsx'
import { runBatchRedeem } from '../../host/markets/batch-redeem.ts'
import { runExit, type ExitResult } from '../../host/markets/exit-actions.ts'
import { MarketsStatus } from './MarketsStatus.tsx'
import { marketHref } from '../../host/markets/market-route.ts'
import { useExit } from './use-exit.ts'
import { usePortfolio } from './use-portfolio.ts'
import { useMarketToken } from './use-market-token.ts'
import { TableScroll } from '../common/TableScroll.tsx'

type Amount = (v: bigint, digits?: number) => string

function amountFormatter(token: CollateralDeployment): Amount {
  return (v, digits = 4) =>
    formatTokenAmount(v, token.decimals, { maxFractionDigits: digits, symbol: token.symbol })
}

/** A P&L with its sign and tone: "+1.25 tUSD (+4.10 %)". */
function Pnl({
  pnl,
  bps,
  amount,
  testId,
}: {
  pnl: bigint | null
  bps: number | null
  amount: Amount
  testId: string
}) {
  if (pnl === null)
    return (
      <span className="muted" data-testid={testId} data-units="">
        —
      </span>
    )
  return (
    <span
      className={pnl > 0n ? 'text-good' : pnl < 0n ? 'text-bad' : 'muted'}
      data-testid={testId}
      data-units={pnl.toString()}
    >
      {pnl > 0n ? '+' : ''}
      {amount(pnl)}
      {bps !== null && ` (${formatBpsPercent(bps)})`}
    </span>
  )
}

function unvaluedText(u: Unvalued, token: CollateralDeployment): string {
  if (u.reason === 'awaiting-settlement') return 'awaiting settlement'
  if (u.reason === 'reading') return 'reading…'
  return revertSentence(u.errorName, u.args, { token: { symbol: token.symbol, decimals: token.decimals } })
}

interface BatchRow {
  title: string
  state: TxState
  result: ExitResult | null
}

export function PortfolioView() {
  const token = useMarketToken()
  const { owner, entries, totals, error } = usePortfolio()
  // by market address; the title is kept because a redeemed market leaves `entries`
  const [batch, setBatch] = useState<Record<string, BatchRow>>({})
  const [batchRunning, setBatchRunning] = useState(false)
  if (!token)
    return (
      <Card title="Portfolio" testId="portfolio-view" aside={<MarketsStatus />}>
        <p className="hint">Reading the markets…</p>
      </Card>
    )
  const amount = amountFormatter(token)
  const redeemable = redeemableEntries(entries)
  const redeemTotal = redeemable.reduce((sum, e) => sum + e.exit.tokensOut, 0n)

  const redeemAll = async () => {
    setBatchRunning(true)
    setBatch(
      Object.fromEntries(
        redeemable.map((e) => [
          e.market.address,
          { title: marketTitle(e.market), state: TX_IDLE, result: null },
        ]),
      ),
    )
    const update = (a: Address, patch: Partial<BatchRow>) =>
      setBatch((b) => ({ ...b, [a]: { ...b[a]!, ...patch } }))
    try {
      await runBatchRedeem({
        targets: redeemable,
        redeem: (t, onState) => runExit({ market: t.market, quote: t.exit, token, onState }),
        onState: (a, state) => update(a, { state }),
        onResult: (a, result) => update(a, { result }),
      })
    } finally {
      setBatchRunning(false)
    }
  }

  return (
    <div className="mk-portfolio" data-testid="portfolio-view">
      <Card title="Portfolio" testId="portfolio-summary" aside={<MarketsStatus />}>
        {!owner ? (
          <p className="hint">Connect a wallet on this chain to see its positions.</p>
        ) : (
          <>
            <dl className="kv mk-facts">
              <dt>Value now</dt>
              <dd data-testid="portfolio-total-value" data-units={totals.value.toString()}>
                {amount(totals.value)}
              </dd>
              <dt>Cost</dt>
              <dd data-testid="portfolio-total-cost" data-units={totals.cost.toString()}>
                {amount(totals.cost)}
              </dd>
              <dt>P&amp;L</dt>
              <dd>
                <Pnl pnl={totals.pnl} bps={totals.pnlBps} amount={amount} testId="portfolio-total-pnl" />
              </dd>
              <dt>Realized by sells</dt>
              <dd data-testid="portfolio-total-realized" data-units={totals.realized.toString()}>
                {amount(totals.realized)}
              </dd>
            </dl>
            {totals.unvalued > 0 && (
              <p className="hint">
                {totals.unvalued} {totals.unvalued === 1 ? 'market has' : 'markets have'} no value until the
                oracle settles: left out of the totals.
              </p>
            )}
            <p className="hint">
              Value is what you would receive now: the sell quote while trading is open, the redemption of a
              settled market, the liquidation of an expired or failed one. Cost is what your own buys paid for
              the shares you still hold (average cost).
            </p>
            <div className="button-row">
              <button
                type="button"
                className="btn btn-primary"
                data-testid="portfolio-redeem-all"
                data-count={redeemable.length}
                data-units={redeemTotal.toString()}
                disabled={redeemable.length === 0 || batchRunning}
                onClick={() => void redeemAll()}
              >
                {batchRunning
                  ? 'Redeeming…'
                  : redeemable.length === 0
                    ? 'No settled winners to redeem'
                    : `Redeem all settled winners (${redeemable.length}) for ${amount(redeemTotal, 6)}`}
              </button>
            </div>
            {Object.keys(batch).length > 0 && (
              <ul className="mk-batch" data-testid="portfolio-redeem-results">
                {Object.entries(batch).map(([address, r]) => (
                  <li
                    key={address}
                    data-testid="redeem-result"
                    data-address={address}
                    data-ok={r.result ? String(r.result.ok) : ''}
                    data-units={r.result?.ok ? r.result.received.toString() : ''}
                  >
                    <span>{r.title}</span>{' '}
                    {r.result?.ok ? (
                      <span className="text-good">received {amount(r.result.received, 6)}</span>
                    ) : r.result ? (
                      <span className="inline-error">{r.result.error}</span>
                    ) : (
                      <TxStatus state={r.state} testId="redeem-result-status" what="Redeem" />
                    )}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
        {error && (
          <p className="inline-error" role="alert">
            {error}
          </p>
        )}
      </Card>
      {owner && entries.length === 0 && (
        <Card title="Positions" testId="portfolio-empty">
          <p className="hint">This wallet holds no shares of any market yet.</p>
        </Card>
      )}
      {entries.map((e) => (
        <EntryCard key={e.market.address} entry={e} token={token} busy={batchRunning} />
      ))}
    </div>
  )
}

function EntryCard({
  entry: e,
  token,
  busy,
}: {
  entry: PortfolioEntry
  token: CollateralDeployment
  busy: boolean
}) {
  const m = e.market
  const { tx, sending, received, submit: sendExit } = useExit(m, token)
  const amount = amountFormatter(token)
  const status = statusLabel(m.status)
  const ready = e.exit?.ok ? e.exit : null
  const verb = e.action === 'redeem' ? 'Redeem' : 'Liquidate'
  const problem =
    e.exit && !e.exit.ok
      ? revertSentence(e.exit.errorName, e.exit.args, {
          token: { symbol: token.symbol, decimals: token.decimals },
        })
      : null

  const submit = () => sendExit(ready)

  return (
    <Card
      title={<a href={marketHref(m.address)}>{marketTitle(m)}</a>}
      testId="portfolio-entry"
      data-address={m.address}
      data-action={e.action ?? ''}
      data-value={e.value?.toString() ?? ''}
      data-cost={e.cost.toString()}
      data-pnl={e.pnl?.toString() ?? ''}
      aside={
        <span className={`pill tone-${status.tone}`} data-testid="portfolio-entry-status">
          {status.label}
        </span>
      }
    >
      <TableScroll label="Shares in this market">
        <table className="table mk-portfolio-table">
          <thead>
            <tr>
              <th>Outcome</th>
              <th className="num">Shares</th>
              <th className="num">Value now</th>
              <th className="num">Cost</th>
              <th className="num">P&amp;L</th>
            </tr>
          </thead>
          <tbody>
            {e.holdings.map((h) => {
              const pnl = h.value === null ? null : h.value - h.cost
              return (
                <tr
                  key={h.outcome}
                  data-testid="portfolio-holding"
                  data-outcome={h.outcome}
                  data-shares={h.shares.toString()}
                  data-value={h.value?.toString() ?? ''}
                  data-cost={h.cost.toString()}
                >
                  <td>
                    {outcomeLabel(m, h.outcome)}
                    {e.action === 'redeem' && BigInt(h.outcome) === m.winningOutcomeIdx && (
                      <span className="pill tone-good mk-winner">won</span>
                    )}
                  </td>
                  <td className="num">{formatShares(h.shares)}</td>
                  <td className="num">
                    {h.value !== null ? (
                      amount(h.value)
                    ) : (
                      <span className="muted">{unvaluedText(h.unvalued!, token)}</span>
                    )}
                  </td>
                  <td className="num">{amount(h.cost)}</td>
                  <td className="num">
                    <Pnl
                      pnl={pnl}
                      bps={pnl === null || h.cost === 0n ? null : Number((pnl * 10_000n) / h.cost)}
                      amount={amount}
                      testId="portfolio-holding-pnl"
                    />
                  </td>
                </tr>
              )
            })}
          </tbody>
          <tfoot>
            <tr>
              <td>Position</td>
              <td />
              <td className="num" data-testid="portfolio-entry-value">
                {e.value !== null ? amount(e.value) : '—'}
              </td>
              <td className="num">{amount(e.cost)}</td>
              <td className="num">
                <Pnl pnl={e.pnl} bps={e.pnlBps} amount={amount} testId="portfolio-entry-pnl" />
              </td>
            </tr>
          </tfoot>
        </table>
      </TableScroll>
      {e.action === null ? (
        <p className="hint">
          {e.holdings.some((h) => h.unvalued?.reason === 'awaiting-settlement') ? (
            'Trading has closed: the position can be redeemed once the oracle settles, or liquidated if it never does.'
          ) : (
            <>
              Trading is open: <a href={marketHref(m.address)}>sell on the market page</a>.
            </>
          )}
        </p>
      ) : (
        <>
          {problem && <p className="hint mk-problem">{problem}</p>}
          {e.action === 'redeem' && e.exit === null && e.value === 0n && (
            <p className="hint">Your outcomes lost: there is nothing to redeem.</p>
          )}
          {(ready || problem) && (
            <div className="button-row">
              <button
                type="button"
                className="btn"
                data-testid="portfolio-exit"
                data-action={e.action}
                data-units={ready?.tokensOut.toString() ?? ''}
                disabled={!ready || sending || busy || txBusy(tx)}
                onClick={() => void submit()}
              >
                {ready ? `${verb} for ${amount(ready.tokensOut, 6)}` : verb}
              </button>
            </div>
          )}
        </>
      )}
      <TxStatus state={tx} testId="portfolio-exit-status" what={verb} />
      {received !== null && (
        <p className="mk-received" data-testid="portfolio-exit-received" data-units={received.toString()}>
          Received {amount(received, 6)}.
        </p>
      )}
    </Card>
  )
}
