import { describe, expect, it } from 'vitest'
import {
  cellInterval,
  poolCellScores,
  stratifiedChange,
  stratifiedInterval,
  wilsonInterval,
} from './pass-interval.ts'

describe('wilsonInterval', () => {
  it('matches the textbook values', () => {
    // 8 of 10: Wilson 95 % is 0.490–0.943 (e.g. Newcombe 1998, table I)
    const [lo, hi] = wilsonInterval(8, 10)
    expect(lo).toBeCloseTo(0.4902, 3)
    expect(hi).toBeCloseTo(0.9433, 3)
    // 0 of 20: [0, 0.161]
    const [lo0, hi0] = wilsonInterval(0, 20)
    expect(lo0).toBe(0)
    expect(hi0).toBeCloseTo(0.1611, 3)
  })

  it('stays inside [0, 1] at the extremes and narrows with n', () => {
    const [lo, hi] = wilsonInterval(5, 5)
    expect(hi).toBe(1)
    expect(lo).toBeGreaterThan(0.5)
    const wide = wilsonInterval(25, 50)
    const narrow = wilsonInterval(250, 500)
    expect(narrow[1] - narrow[0]).toBeLessThan(wide[1] - wide[0])
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError)
    expect(() => wilsonInterval(0, 0)).toThrow(RangeError)
  })
})

describe('cellInterval and stratifiedInterval', () => {
  it('give a cell its Wilson interval and its format failures', () => {
    const cell = cellInterval({ tasks: 10, pass: 0.8, formatted: 0.9 })
    expect(cell.pass).toBe(0.8)
    expect(cell.ci95[0]).toBeCloseTo(0.4902, 3)
    expect(cell.formatFailures).toBeCloseTo(0.1, 12)
    expect(cell.tasks).toBe(10)
  })

  it('weigh every cell alike, whatever its size, with the stratified normal interval', () => {
    const mix = stratifiedInterval([
      { tasks: 5, pass: 1, formatted: 1 },
      { tasks: 500, pass: 0.5, formatted: 0.8 },
    ])
    expect(mix.pass).toBe(0.75)
    expect(mix.formatFailures).toBeCloseTo(0.1, 12)
    expect(mix.tasks).toBe(505)
    // each cell's variance at its Agresti–Coull rate, the 5-of-5 cell's too
    const z = 1.959963984540054
    const term = (x: number, n: number) => {
      const p = (x + (z * z) / 2) / (n + z * z)
      return (p * (1 - p)) / (n + z * z)
    }
    const half = (z * Math.sqrt(term(5, 5) + term(250, 500))) / 2
    expect(mix.ci95[0]).toBeCloseTo(0.75 - half, 12)
    expect(mix.ci95[1]).toBeCloseTo(0.75 + half, 12)
    expect(() => stratifiedInterval([])).toThrow(RangeError)
  })
})

describe('poolCellScores', () => {
  it('adds the shares of each cell by their tasks', () => {
    const a = [{ tasks: 3, pass: 1 / 3, formatted: 1 }]
    const b = [{ tasks: 1, pass: 1, formatted: 0 }]
    expect(poolCellScores([a, b])).toEqual([{ tasks: 4, pass: 0.5, formatted: 0.75 }])
  })

  it('keeps a cell that every share left empty at zero tasks', () => {
    const empty = [{ tasks: 0, pass: 0, formatted: 0 }]
    expect(poolCellScores([empty, empty])).toEqual(empty)
  })

  it('refuses shares of different cells', () => {
    expect(() => poolCellScores([[{ tasks: 1, pass: 1, formatted: 1 }], []])).toThrow(/same cells/)
  })
})

describe('stratifiedChange', () => {
  const cell = (pass: number, tasks = 500) => ({ tasks, pass, formatted: 1 })

  it('is the mean of the cells’ changes, with an interval that excludes zero for a clear rise', () => {
    const { change, ci95 } = stratifiedChange([cell(0.3), cell(0.5)], [cell(0.45), cell(0.65)])
    expect(change).toBeCloseTo(0.15, 12)
    expect(ci95[0]).toBeGreaterThan(0)
    expect(ci95[1]).toBeGreaterThan(change)
  })

  it('keeps zero inside for a change a few prompts could make', () => {
    const { ci95 } = stratifiedChange([cell(0.4, 10)], [cell(0.6, 10)])
    expect(ci95[0]).toBeLessThan(0)
  })

  it('refuses sides of different cells', () => {
    expect(() => stratifiedChange([cell(0.1)], [])).toThrow(/same non-empty cells/)
  })
})
