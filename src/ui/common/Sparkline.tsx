// A tiny line chart in inline SVG: a few series sharing one y scale, right-aligned in `capacity` slots
// so a history that is still filling grows from the right. It stretches to its box (CSS sets the height).

export interface SparkSeries {
  values: readonly number[]
  /** CSS class for the stroke colour, e.g. "spark-in" */
  className: string
  label: string
}

const W = 300
const H = 60

export function Sparkline({
  series,
  capacity,
  testId,
}: {
  series: readonly SparkSeries[]
  capacity: number
  testId?: string
}) {
  const max = Math.max(1, ...series.flatMap((s) => s.values))
  const pad = 3
  const step = capacity > 1 ? W / (capacity - 1) : 0
  const y = (v: number) => H - pad - (v / max) * (H - 2 * pad)
  const points = (values: readonly number[]) => {
    const offset = capacity - values.length
    return values.map((v, i) => `${((offset + i) * step).toFixed(1)},${y(v).toFixed(1)}`).join(' ')
  }
  return (
    <div className="sparkline" data-testid={testId}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={series.map((s) => s.label).join(', ')}
      >
        <line className="spark-base" x1={0} x2={W} y1={H - pad} y2={H - pad} />
        {series.map((s) =>
          s.values.length > 1 ? (
            <polyline key={s.label} className={`spark-line ${s.className}`} points={points(s.values)} />
          ) : null,
        )}
      </svg>
      <span className="spark-max">max {Number(max.toFixed(1))}</span>
    </div>
  )
}
