import { describe, expect, it } from 'vitest'
import { downsampleMinMax, type XY } from './downsample.ts'

const line = (n: number, y: (i: number) => number): XY[] =>
  Array.from({ length: n }, (_, i) => ({ x: i, y: y(i) }))

describe('downsampleMinMax', () => {
  it('cuts 100k points to at most 3 per column, keeping every column’s extremes', () => {
    const n = 100_000
    const columns = 600
    const points = line(n, (i) => Math.sin(i / 500) + (i % 997 === 0 ? 5 : 0) - (i % 1009 === 0 ? 5 : 0))
    const t0 = performance.now()
    const out = downsampleMinMax(points, columns, 0, n - 1)
    const ms = performance.now() - t0
    expect(out.length).toBeLessThanOrEqual(2 * columns)
    expect(out.length).toBeGreaterThan(columns)
    expect(ms).toBeLessThan(200)
    // every column's true min and max survive
    const perColumn = new Map<number, { min: number; max: number }>()
    const col = (x: number) => Math.min(columns - 1, Math.floor((x * columns) / (n - 1)))
    for (const p of points) {
      const c = perColumn.get(col(p.x)) ?? { min: Infinity, max: -Infinity }
      perColumn.set(col(p.x), { min: Math.min(c.min, p.y), max: Math.max(c.max, p.y) })
    }
    const kept = new Map<number, number[]>()
    for (const p of out) kept.set(col(p.x), [...(kept.get(col(p.x)) ?? []), p.y])
    for (const [c, { min, max }] of perColumn) {
      expect(kept.get(c)).toContain(min)
      expect(kept.get(c)).toContain(max)
    }
    // the spikes are still there
    expect(Math.max(...out.map((p) => p.y))).toBeGreaterThan(5)
    expect(Math.min(...out.map((p) => p.y))).toBeLessThan(-4)
    // x stays in order, so the line is drawn left to right
    for (let i = 1; i < out.length; i++) expect(out[i]!.x).toBeGreaterThanOrEqual(out[i - 1]!.x)
  })

  it('keeps min and max in the order they occur', () => {
    const points = [
      { x: 0, y: 5 },
      { x: 0.1, y: 1 },
      { x: 0.2, y: 3 },
      { x: 1, y: 0 },
      { x: 1.1, y: 9 },
    ]
    expect(downsampleMinMax(points, 2, 0, 2)).toEqual([
      { x: 0, y: 5 },
      { x: 0.1, y: 1 },
      { x: 1, y: 0 },
      { x: 1.1, y: 9 },
    ])
  })

  it('breaks the line at gaps and keeps them within 3 points per column', () => {
    const n = 100_000
    const points = line(n, (i) => (i % 2 === 0 ? NaN : 1)) // every other round skipped
    const out = downsampleMinMax(points, 100, 0, n - 1)
    expect(out.length).toBeLessThanOrEqual(300)
    expect(out.some((p) => Number.isNaN(p.y))).toBe(true)
    expect(out.filter((p) => !Number.isNaN(p.y)).every((p) => p.y === 1)).toBe(true)
  })

  it('passes short series through, collapsing runs of gaps and dropping a leading one', () => {
    const points = [
      { x: 0, y: NaN },
      { x: 1, y: 2 },
      { x: 2, y: NaN },
      { x: 3, y: NaN },
      { x: 4, y: 3 },
    ]
    expect(downsampleMinMax(points, 100, 0, 4)).toEqual([
      { x: 1, y: 2 },
      { x: 2, y: NaN },
      { x: 4, y: 3 },
    ])
  })

  it('breaks the line between two columns when a gap starts a column', () => {
    const points = line(40, (i) => (i === 20 ? NaN : i))
    const out = downsampleMinMax(points, 4, 0, 40)
    const gapAt = out.findIndex((p) => Number.isNaN(p.y))
    expect(gapAt).toBeGreaterThan(0)
    expect(out[gapAt - 1]!.x).toBeLessThan(20)
    expect(out[gapAt + 1]!.x).toBeGreaterThan(20)
  })
})
