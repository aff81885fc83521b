// The chart's hover readout: the y of a series at one x (a round), found by binary search because the
// series are sorted by x and may hold thousands of points. Pure.
import type { XY } from './downsample.ts'

/** y at exactly `x`; undefined when the series has no point there, NaN when it is a gap. */
export function yAt(points: readonly XY[], x: number): number | undefined {
  let lo = 0
  let hi = points.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const p = points[mid]!
    if (p.x === x) return p.y
    if (p.x < x) lo = mid + 1
    else hi = mid - 1
  }
  return undefined
}
