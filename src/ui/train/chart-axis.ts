// Axis maths for the Train charts: the range a chart shows and "nice" tick values (1, 2 or 5 × 10^k
// steps) with labels that carry no more digits than the step needs. Pure.
import { formatCompact } from '../../host/format.ts'

export interface Range {
  min: number
  max: number
}

/** The finite extent of `values`, or null when there is none. */
export function extent(values: Iterable<number>): Range | null {
  let min = Infinity
  let max = -Infinity
  for (const v of values) {
    if (!Number.isFinite(v)) continue
    if (v < min) min = v
    if (v > max) max = v
  }
  return min <= max ? { min, max } : null
}

/**
 * The y range to draw: the data's extent widened to include `include` (e.g. 0 for rewards, so a
 * flat line at 0.8 does not fill the chart) and to a non-empty span (upwards from an included 0);
 * `fallback` when there is no data.
 */
export function paddedRange(data: Range | null, include: readonly number[], fallback: Range): Range {
  if (!data) return fallback
  let { min, max } = data
  for (const v of include) {
    min = Math.min(min, v)
    max = Math.max(max, v)
  }
  if (max - min < 1e-9) {
    const pad = Math.abs(max) > 1e-9 ? Math.abs(max) * 0.1 : 1
    // a flat 0 that the chart asked to include is a floor (norms, counts, rewards): no negative half
    if (pad === 1 && include.includes(0)) return { min: 0, max: 1 }
    return { min: min - pad, max: max + pad }
  }
  return { min, max }
}

/** A tick step of 1, 2 or 5 × 10^k giving about `count` intervals over `span`. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count)
  const power = 10 ** Math.floor(Math.log10(raw))
  const f = raw / power
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * power
}

/** Multiples of `step` inside [min, max]. */
function ticksWithStep(min: number, max: number, step: number): number[] {
  const ticks: number[] = []
  // `step * i` rather than repeated addition, so 0.1 steps do not drift to 0.30000000000000004
  for (let i = Math.ceil(min / step - 1e-9); i * step <= max + step * 1e-9; i++) ticks.push(i * step + 0) // + 0 turns -0 into 0
  return ticks
}

/** Tick values inside [min, max], about `count` intervals apart, on multiples of a nice step. */
export function niceTicks(min: number, max: number, count: number): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return []
  if (max <= min) return [min]
  return ticksWithStep(min, max, niceStep(max - min, count))
}

/** Ticks for a round axis: whole rounds only. */
export function integerTicks(min: number, max: number, count: number): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return []
  if (max - min < 1) return [Math.round(min)]
  return ticksWithStep(min, max, Math.max(1, niceStep(max - min, count)))
}

/** A tick label with as many decimals as the step between ticks needs: 0.25 → "0.25", 2000 → "2k". */
export function tickLabel(value: number, step: number): string {
  if (Math.abs(value) < step * 1e-6) return '0'
  if (Math.abs(value) >= 1000) return formatCompact(value)
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9))
  return value.toFixed(Math.min(decimals, 6))
}
