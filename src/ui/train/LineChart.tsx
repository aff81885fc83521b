// A line chart on <canvas> for the Train view: several series over rounds, axes with tick labels, a
// legend, and marks for skipped rounds. It stays smooth with any number of points: each series is cut
// down to the pixel columns (downsample.ts) and the canvas is redrawn only when the data or the size
// changes, never on the parent's other renders or on hover (the readout is HTML over the canvas).
// `data-draws` on the canvas counts the redraws.
import { memo, useEffect, useRef, useState, type MouseEvent } from 'react'
import {
  extent,
  integerTicks,
  niceStep,
  niceTicks,
  paddedRange,
  tickLabel,
  type Range,
} from './chart-axis.ts'
import { downsampleMinMax, type XY } from './downsample.ts'
import { yAt } from './series-lookup.ts'

export type Tone = 'accent' | 'accent-2' | 'good' | 'warn'

/** An interval around a series at one x (a 95 % interval of an evaluation). */
export interface BandPoint {
  x: number
  low: number
  high: number
}

export interface ChartSeries {
  label: string
  tone: Tone
  points: readonly XY[]
  /** drawn as a shaded band behind the line; a gap in x (a point without an interval) breaks it */
  band?: readonly BandPoint[]
}

export interface ChartMark {
  x: number
  why: string
}

interface LineChartProps {
  series: readonly ChartSeries[]
  /** rounds to mark on the x axis (skipped rounds) */
  marks?: readonly ChartMark[]
  /** y values the axis always shows (0 for rewards, 1 for pass@1) */
  yInclude?: readonly number[]
  /** formats the legend's latest values */
  format?: (y: number) => string
  /** shown over the empty plot */
  empty: string
  testId: string
}

/** Plot margins in CSS px: room for the y labels on the left and the x labels below. */
const MARGIN = { left: 44, right: 12, top: 10, bottom: 24 }
const HEIGHT = 190
/** Below this many points on screen each one gets a dot, so a lone round is visible. */
const DOT_LIMIT = 80
/** About this many tick intervals on each axis. */
const Y_TICKS = 4
const X_TICKS = 6
const FALLBACK_Y: Range = { min: 0, max: 1 }
/** The x axis before the first round: rounds 0 to 10. */
const EMPTY_X: Range = { min: 0, max: 10 }
/** Stable defaults, so an absent prop does not count as changed data. */
const NO_MARKS: readonly ChartMark[] = []
const NO_VALUES: readonly number[] = []

const last = (points: readonly XY[]): number | undefined => {
  for (let i = points.length - 1; i >= 0; i--) if (!Number.isNaN(points[i]!.y)) return points[i]!.y
  return undefined
}

/** Where the plot landed: what the hover readout needs to turn a mouse x into a round. */
interface Geometry {
  xr: Range
  plotW: number
}

function draw(
  canvas: HTMLCanvasElement,
  width: number,
  series: readonly ChartSeries[],
  marks: readonly ChartMark[],
  yInclude: readonly number[],
): Geometry | null {
  const dpr = window.devicePixelRatio || 1
  canvas.width = Math.round(width * dpr)
  canvas.height = Math.round(HEIGHT * dpr)
  const ctx = canvas.getContext('2d')
  if (!ctx) return null
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0)
  ctx.clearRect(0, 0, width, HEIGHT)
  const css = getComputedStyle(canvas)
  const color = (name: string) => css.getPropertyValue(`--${name}`).trim() || '#888'

  const plotW = Math.max(1, width - MARGIN.left - MARGIN.right)
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom
  const xs = extent([
    ...series.flatMap((s) => [s.points[0]?.x ?? NaN, s.points.at(-1)?.x ?? NaN]),
    ...marks.map((m) => m.x),
  ])
  // one round: centred, with only its own tick
  const xr: Range = xs ? (xs.max > xs.min ? xs : { min: xs.min - 0.5, max: xs.max + 0.5 }) : EMPTY_X
  const yData = paddedRange(
    extent(
      series.flatMap((s) => [...s.points.map((p) => p.y), ...(s.band ?? []).flatMap((b) => [b.low, b.high])]),
    ),
    yInclude,
    FALLBACK_Y,
  )
  const yStep = niceStep(yData.max - yData.min, Y_TICKS)
  const yr: Range = { min: Math.floor(yData.min / yStep) * yStep, max: Math.ceil(yData.max / yStep) * yStep }
  const px = (x: number) => MARGIN.left + ((x - xr.min) / (xr.max - xr.min)) * plotW
  const py = (y: number) => MARGIN.top + (1 - (y - yr.min) / (yr.max - yr.min)) * plotH

  // grid and axes
  ctx.font = '11px system-ui, sans-serif'
  ctx.lineWidth = 1
  ctx.strokeStyle = color('border')
  ctx.fillStyle = color('muted')
  ctx.textAlign = 'right'
  ctx.textBaseline = 'middle'
  for (const t of niceTicks(yr.min, yr.max, Y_TICKS)) {
    const y = Math.round(py(t)) + 0.5
    ctx.beginPath()
    ctx.moveTo(MARGIN.left, y)
    ctx.lineTo(MARGIN.left + plotW, y)
    ctx.stroke()
    ctx.fillText(tickLabel(t, yStep), MARGIN.left - 6, y)
  }
  ctx.textAlign = 'center'
  ctx.textBaseline = 'top'
  const xTicks = integerTicks(xr.min, xr.max, Math.max(2, Math.min(X_TICKS, Math.floor(plotW / 60))))
  const xStep = xTicks.length > 1 ? xTicks[1]! - xTicks[0]! : 1
  for (const t of xTicks) {
    const x = Math.round(px(t)) + 0.5
    ctx.beginPath()
    ctx.moveTo(x, MARGIN.top + plotH)
    ctx.lineTo(x, MARGIN.top + plotH + 4)
    ctx.stroke()
    ctx.fillText(tickLabel(t, xStep), x, MARGIN.top + plotH + 7)
  }

  // skipped rounds: a faint band through the plot and a tick on the axis
  ctx.fillStyle = color('bad')
  for (const m of marks) {
    const x = px(m.x)
    ctx.globalAlpha = 0.12
    ctx.fillRect(x - 1.5, MARGIN.top, 3, plotH)
    ctx.globalAlpha = 1
    ctx.fillRect(x - 1.5, MARGIN.top + plotH - 5, 3, 5)
  }

  ctx.save()
  ctx.beginPath()
  ctx.rect(MARGIN.left, MARGIN.top - 2, plotW, plotH + 4)
  ctx.clip()
  for (const s of series) if (s.band) drawBand(ctx, s.band, s.points, color(s.tone), px, py)
  ctx.lineWidth = 1.8
  ctx.lineJoin = 'round'
  for (const s of series) {
    const points = downsampleMinMax(s.points, Math.ceil(plotW), xr.min, xr.max)
    ctx.strokeStyle = ctx.fillStyle = color(s.tone)
    ctx.beginPath()
    let pen = false
    for (const p of points) {
      if (Number.isNaN(p.y)) {
        pen = false
        continue
      }
      if (pen) ctx.lineTo(px(p.x), py(p.y))
      else ctx.moveTo(px(p.x), py(p.y))
      pen = true
    }
    ctx.stroke()
    if (points.length <= DOT_LIMIT)
      for (const p of points) {
        if (Number.isNaN(p.y)) continue
        ctx.beginPath()
        ctx.arc(px(p.x), py(p.y), 2.6, 0, 2 * Math.PI)
        ctx.fill()
      }
  }
  ctx.restore()
  return { xr, plotW }
}

/**
 * A series' interval as a translucent band: one polygon per run of consecutive points that have an
 * interval (an evaluation saved before intervals were kept has none, and breaks the band); a lone
 * interval is a short bar.
 */
function drawBand(
  ctx: CanvasRenderingContext2D,
  band: readonly BandPoint[],
  points: readonly XY[],
  fill: string,
  px: (x: number) => number,
  py: (y: number) => number,
) {
  const at = new Map(band.map((b) => [b.x, b]))
  const runs: BandPoint[][] = [[]]
  for (const p of points) {
    const b = at.get(p.x)
    if (b) runs.at(-1)!.push(b)
    else if (runs.at(-1)!.length > 0) runs.push([])
  }
  ctx.save()
  ctx.globalAlpha = 0.18
  ctx.fillStyle = ctx.strokeStyle = fill
  for (const run of runs) {
    if (run.length === 0) continue
    if (run.length === 1) {
      const b = run[0]!
      ctx.fillRect(px(b.x) - 3, py(b.high), 6, py(b.low) - py(b.high))
      continue
    }
    ctx.beginPath()
    run.forEach((b, i) => (i === 0 ? ctx.moveTo(px(b.x), py(b.high)) : ctx.lineTo(px(b.x), py(b.high))))
    for (let i = run.length - 1; i >= 0; i--) ctx.lineTo(px(run[i]!.x), py(run[i]!.low))
    ctx.closePath()
    ctx.fill()
  }
  ctx.restore()
}

function Readout({
  x,
  left,
  flip,
  series,
  marks,
  format,
}: {
  x: number
  left: number
  /** show the box left of the cursor (in the right half of the chart) */
  flip: boolean
  series: readonly ChartSeries[]
  marks: readonly ChartMark[]
  format: (y: number) => string
}) {
  const skipped = marks.find((m) => m.x === x)
  return (
    <>
      <div className="chart-cursor" style={{ left }} />
      <div className={`chart-readout ${flip ? 'flip' : ''}`} style={{ left }}>
        <strong>round {x}</strong>
        {skipped ? (
          <span className="text-bad">skipped: {skipped.why}</span>
        ) : (
          series.map((s) => {
            const y = yAt(s.points, x)
            return (
              <span key={s.label}>
                <span className={`legend-swatch tone-${s.tone}`} /> {s.label}{' '}
                <b>{y === undefined || Number.isNaN(y) ? '—' : format(y)}</b>
              </span>
            )
          })
        )}
      </div>
    </>
  )
}

function LineChartImpl({
  series,
  marks = NO_MARKS,
  yInclude = NO_VALUES,
  format,
  empty,
  testId,
}: LineChartProps) {
  const box = useRef<HTMLDivElement>(null)
  const canvas = useRef<HTMLCanvasElement>(null)
  const draws = useRef(0)
  const geometry = useRef<Geometry | null>(null)
  const [width, setWidth] = useState(0)
  const [hover, setHover] = useState<{ x: number; left: number } | null>(null)

  useEffect(() => {
    const el = box.current
    if (!el) return
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width))
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    const el = canvas.current
    if (!el || width === 0) return
    geometry.current = draw(el, width, series, marks, yInclude)
    el.dataset.draws = String(++draws.current)
  }, [series, marks, yInclude, width])

  const hasData = series.some((s) => s.points.some((p) => !Number.isNaN(p.y)))
  const onMove = (e: MouseEvent<HTMLDivElement>) => {
    const g = geometry.current
    if (!g || !hasData) return
    const at = e.clientX - e.currentTarget.getBoundingClientRect().left - MARGIN.left
    const span = g.xr.max - g.xr.min
    const x = Math.round(g.xr.min + (Math.min(g.plotW, Math.max(0, at)) / g.plotW) * span)
    const clamped = Math.min(Math.floor(g.xr.max), Math.max(Math.ceil(g.xr.min), x))
    setHover({ x: clamped, left: MARGIN.left + ((clamped - g.xr.min) / span) * g.plotW })
  }
  return (
    <div className="line-chart">
      <div
        className="chart-box"
        ref={box}
        style={{ height: HEIGHT }}
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
      >
        <canvas
          ref={canvas}
          data-testid={`chart-${testId}`}
          data-points={series.map((s) => s.points.length).join(' ')}
          data-bands={series.map((s) => s.band?.length ?? 0).join(' ')}
          style={{ width: '100%', height: HEIGHT }}
          role="img"
          aria-label={series.map((s) => s.label).join(', ')}
        />
        {!hasData && <div className="chart-empty">{empty}</div>}
        {hover && (
          <Readout
            x={hover.x}
            left={hover.left}
            flip={hover.left > width / 2}
            series={series}
            marks={marks}
            format={format ?? String}
          />
        )}
      </div>
      <ul className="legend chart-legend">
        {series.map((s) => {
          const y = last(s.points)
          return (
            <li key={s.label}>
              <span className={`legend-swatch tone-${s.tone}`} />
              {s.label}
              {y !== undefined && format && <span className="legend-value">{format(y)}</span>}
            </li>
          )
        })}
        {marks.length > 0 && (
          <li title={marks.map((m) => `round ${m.x}: ${m.why}`).join('\n')}>
            <span className="legend-swatch tone-bad" />
            skipped ({marks.length})
          </li>
        )}
      </ul>
    </div>
  )
}

/** Re-renders (and redraws) only when a prop changes: pass memoised series. */
export const LineChart = memo(LineChartImpl)
