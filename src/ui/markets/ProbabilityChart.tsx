// The market page's probability chart: each outcome's implied probability after every trade, from the
// market's creation on (src/core/markets/probability-series.ts replays the trade events through the exact
// maths). An SVG line per outcome, one step per trade (trades are evenly spaced: blocks are not time),
// with a legend; a note when the history the tab holds does not reach the chain's state.
import { useMemo } from 'react'
import { formatProbability } from '../../core/markets/market-format.ts'
import { outcomeLabel, type MarketSnapshot } from '../../core/markets/market-snapshot.ts'
import { probabilitySeries } from '../../core/markets/probability-series.ts'
import { Card } from '../common/Card.tsx'
import { useTradeHistoryStore } from '../stores.ts'

/** Line colours by outcome index (cycled past eight; the form creates at most eight outcomes). */
const COLOURS = ['#4aa3ff', '#f2a541', '#5ccf8a', '#e86a6a', '#b48cf2', '#4fd1c5', '#f06bb3', '#c9c95a']
const WIDTH = 640
const HEIGHT = 220
const PAD = { left: 40, right: 12, top: 10, bottom: 22 }
/** Markers on every point up to this many trades; past it, lines only. */
const MAX_MARKERS = 120

const NONE: never[] = []
const WAD = 10n ** 18n

export function ProbabilityChart({ market: m }: { market: MarketSnapshot }) {
  const trades = useTradeHistoryStore((s) => s.trades[m.address.toLowerCase()] ?? NONE)
  const through = useTradeHistoryStore((s) => s.throughBlock)
  const series = useMemo(() => probabilitySeries(m, trades), [m, trades])
  const { points } = series
  const innerW = WIDTH - PAD.left - PAD.right
  const innerH = HEIGHT - PAD.top - PAD.bottom
  const x = (i: number) => PAD.left + (points.length === 1 ? innerW / 2 : (i * innerW) / (points.length - 1))
  // basis points of a WAD probability, as a plain number for the SVG coordinates
  const y = (p: bigint) => PAD.top + innerH * (1 - Number((p * 10_000n) / WAD) / 10_000)
  const last = points[points.length - 1]!
  // the chart is behind the chain until the history has been read through the snapshot's block
  const caughtUp = through !== null && through >= m.blockNumber
  return (
    <Card
      title="Implied probability over time"
      testId="probability-chart"
      data-points={points.length}
      data-complete={String(series.complete)}
    >
      <svg
        className="mk-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Implied probability of each outcome after each of ${points.length - 1} trades`}
      >
        {[0, 25, 50, 75, 100].map((pct) => {
          const gy = PAD.top + innerH * (1 - pct / 100)
          return (
            <g key={pct} className="mk-chart-grid">
              <line x1={PAD.left} x2={WIDTH - PAD.right} y1={gy} y2={gy} />
              <text x={PAD.left - 6} y={gy + 4} textAnchor="end">
                {pct} %
              </text>
            </g>
          )
        })}
        <text className="mk-chart-axis" x={PAD.left} y={HEIGHT - 4}>
          created
        </text>
        <text className="mk-chart-axis" x={WIDTH - PAD.right} y={HEIGHT - 4} textAnchor="end">
          {points.length - 1} {points.length === 2 ? 'trade' : 'trades'}
        </text>
        {m.supplies.map((_, o) => {
          const colour = COLOURS[o % COLOURS.length]
          const path = points.map(
            (p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.probabilities[o]!).toFixed(1)}`,
          )
          return (
            <g key={o} data-testid="chart-line" data-outcome={o}>
              <path d={path.join(' ')} fill="none" stroke={colour} strokeWidth={2} />
              {points.length <= MAX_MARKERS &&
                points.map((p, i) => (
                  <circle
                    key={i}
                    cx={x(i)}
                    cy={y(p.probabilities[o]!)}
                    r={2.5}
                    fill={colour}
                    data-testid={o === 0 ? 'chart-point' : undefined}
                  >
                    <title>
                      {`${outcomeLabel(m, o)}: ${formatProbability(p.probabilities[o]!)}${p.blockNumber !== null ? ` (block ${p.blockNumber})` : ''}`}
                    </title>
                  </circle>
                ))}
            </g>
          )
        })}
      </svg>
      <ul className="mk-legend" data-testid="chart-legend">
        {m.supplies.map((_, o) => (
          <li key={o}>
            <span className="mk-swatch" style={{ background: COLOURS[o % COLOURS.length] }} />
            {outcomeLabel(m, o)} <span className="muted">{formatProbability(last.probabilities[o]!)}</span>
          </li>
        ))}
      </ul>
      {caughtUp && !series.complete && (
        <p className="hint" data-testid="chart-incomplete">
          Some trades of this market are missing from the history this tab read, so the chart may not end at
          the market’s current probabilities.
        </p>
      )}
    </Card>
  )
}
