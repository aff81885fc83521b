// The edge view of a market page (like Delphi's agent toolkit): the trader types their own probability
// of each outcome; each row shows the market's implied probability next to theirs, the edge, and the
// trade that moves the market toward theirs without passing it (src/core/markets/edge.ts), quoted by the
// exact maths — the same quote the trade panel gives for that many shares.
import { useState } from 'react'
import type { CollateralDeployment } from '../../host/chain/deployment.ts'
import { formatTokenAmount } from '../../core/markets/token-amount.ts'
import { completeBeliefs, edgeRows } from '../../core/markets/edge.ts'
import { formatProbability } from '../../core/markets/market-format.ts'
import { outcomeLabel, type MarketPosition, type MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import { MARKET_STATUS } from '../../core/markets/market-snapshot.ts'
import { parsePercentWad } from '../../core/markets/percent.ts'
import { formatShares } from '../../core/markets/share-amount.ts'
import { Card } from '../common/Card.tsx'
import { TableScroll } from '../common/TableScroll.tsx'

const WAD = 10n ** 18n

/** Percentage points, signed: "+4.20 pp". */
function formatPoints(wad: bigint): string {
  const bps = Number((wad * 10_000n) / WAD)
  return `${bps > 0 ? '+' : bps < 0 ? '−' : ''}${(Math.abs(bps) / 100).toFixed(2)} pp`
}

export function EdgePanel({
  market: m,
  position,
  token,
}: {
  market: MarketSnapshot
  position: MarketPosition | null
  token: CollateralDeployment
}) {
  // empty until typed: the blank outcomes share what the typed ones leave (completeBeliefs)
  const [texts, setTexts] = useState<string[]>(() => m.supplies.map(() => ''))
  const parsed = texts.map((t) => (t.trim() === '' ? null : parsePercentWad(t, 'your probability')))
  const yours = completeBeliefs(
    m.probabilities,
    parsed.map((p) => (p?.ok ? p.value : null)),
  )
  const held = position?.shares ?? m.supplies.map(() => 0n)
  const rows = edgeRows(m, yours, held)
  const sum = yours.reduce((a, b) => a + b, 0n)
  const amount = (v: bigint) =>
    formatTokenAmount(v, token.decimals, { maxFractionDigits: 4, symbol: token.symbol })
  const open = m.status === MARKET_STATUS.open

  return (
    <Card title="Your edge" testId="edge-panel">
      <TableScroll label="Your edge by outcome">
        <table className="table mk-edge">
          <thead>
            <tr>
              <th>Outcome</th>
              <th className="num">Implied</th>
              <th className="num">Yours (%)</th>
              <th className="num">Edge</th>
              <th>To move the market to yours</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const error = parsed[i] && !parsed[i]!.ok ? parsed[i]!.error : null
              const move = r.move
              return (
                <tr
                  key={i}
                  data-testid="edge-row"
                  data-outcome={i}
                  data-edge-wad={r.edge.toString()}
                  data-move-side={move?.side ?? ''}
                  data-move-shares={move?.shares.toString() ?? ''}
                  data-move-tokens={move?.tokens.toString() ?? ''}
                >
                  <td>{outcomeLabel(m, i)}</td>
                  <td className="num">{formatProbability(r.implied)}</td>
                  <td className="num">
                    <input
                      className="input mk-edge-input"
                      inputMode="decimal"
                      placeholder={formatProbability(r.yours, 1).replace(' %', '')}
                      value={texts[i]}
                      aria-label={`Your probability of ${outcomeLabel(m, i)}, in percent`}
                      onChange={(e) => setTexts((t) => t.map((x, j) => (j === i ? e.target.value : x)))}
                    />
                    {error && <p className="inline-error">{error}</p>}
                  </td>
                  <td className={`num ${r.edge > 0n ? 'text-good' : r.edge < 0n ? 'text-bad' : 'muted'}`}>
                    {formatPoints(r.edge)}
                  </td>
                  <td data-testid="edge-move">
                    {!open ? (
                      <span className="muted">trading has closed</span>
                    ) : move === null ? (
                      <span className="muted">
                        {r.edge === 0n
                          ? 'no edge'
                          : r.edge < 0n && held[i] === 0n
                            ? 'overpriced: you hold none to sell'
                            : 'the smallest trade would pass yours'}
                      </span>
                    ) : move.side === 'buy' ? (
                      <>
                        Buy {formatShares(move.shares)} shares for {amount(move.tokens)} →{' '}
                        {formatProbability(move.probabilityAfter)}
                        {move.expectedProfit !== null && (
                          <span className={move.expectedProfit >= 0n ? 'text-good' : 'text-bad'}>
                            {' '}
                            · expected profit by yours {move.expectedProfit >= 0n ? '+' : ''}
                            {amount(move.expectedProfit)}
                          </span>
                        )}
                      </>
                    ) : (
                      <>
                        Sell {formatShares(move.shares)} shares for {amount(move.tokens)} →{' '}
                        {formatProbability(move.probabilityAfter)}
                      </>
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </TableScroll>
      <p className="hint">
        Type your probability of any outcome; the ones you leave blank share the rest in proportion to the
        market’s odds. Yours add up to {formatProbability(sum)}. The expected profit weighs what the shares
        pay if the outcome wins (on the market as it would be after the buy) by your probability, less the
        cost.
      </p>
    </Card>
  )
}
