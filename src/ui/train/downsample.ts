// Reduces a line series to what a canvas can show: per pixel column its lowest and highest point (in
// the order they occur, so the line's shape survives), whatever the number of points. A NaN y is a gap
// (a skipped round): the line breaks there, and a column with a gap ends with one break, so the output
// stays within 3 points per column. Pure; the chart calls it whenever its data or width changes.

export interface XY {
  x: number
  y: number
}

/**
 * `points` sorted by x; `columns` pixel columns spanning [xMin, xMax]. Series no longer than
 * 2 × columns come back as they are (runs of gaps collapsed to one).
 */
export function downsampleMinMax(points: readonly XY[], columns: number, xMin: number, xMax: number): XY[] {
  const out: XY[] = []
  const gap = (x: number) => {
    if (out.length > 0 && !Number.isNaN(out[out.length - 1]!.y)) out.push({ x, y: NaN })
  }
  if (points.length <= 2 * columns || !(xMax > xMin) || columns < 1) {
    for (const p of points) {
      if (Number.isNaN(p.y)) gap(p.x)
      else out.push(p)
    }
    return out
  }
  const scale = columns / (xMax - xMin)
  let column = -1
  let lo: XY | null = null
  let hi: XY | null = null
  let loAt = 0
  let hiAt = 0
  let broken = false
  const flush = () => {
    if (lo && hi) {
      if (lo === hi) out.push(lo)
      else if (loAt < hiAt) out.push(lo, hi)
      else out.push(hi, lo)
    }
    if (broken && lo) gap(lo.x)
    lo = hi = null
    broken = false
  }
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!
    const c = Math.min(columns - 1, Math.max(0, Math.floor((p.x - xMin) * scale)))
    if (c !== column) {
      flush()
      column = c
    }
    if (Number.isNaN(p.y)) {
      if (lo) broken = true
      else gap(p.x) // a gap at the start of a column breaks the line from the previous one
      continue
    }
    if (!lo || p.y < lo.y) {
      lo = p
      loAt = i
    }
    if (!hi || p.y > hi.y) {
      hi = p
      hiAt = i
    }
  }
  flush()
  return out
}
