import { describe, expect, it } from 'vitest'
import { extent, integerTicks, niceStep, niceTicks, paddedRange, tickLabel } from './chart-axis.ts'

describe('chart axis', () => {
  it('takes the finite extent and says when there is none', () => {
    expect(extent([3, NaN, -1, Infinity, 2])).toEqual({ min: -1, max: 3 })
    expect(extent([NaN])).toBeNull()
  })

  it('widens the range to the values it must include and to a non-empty span', () => {
    expect(paddedRange({ min: 0.6, max: 0.8 }, [0], { min: 0, max: 1 })).toEqual({ min: 0, max: 0.8 })
    expect(paddedRange({ min: 5, max: 5 }, [], { min: 0, max: 1 })).toEqual({ min: 4.5, max: 5.5 })
    expect(paddedRange({ min: 0, max: 0 }, [], { min: 0, max: 1 })).toEqual({ min: -1, max: 1 })
    // a flat line on an included 0 (a gradient norm of rounds without a signal) grows upwards only
    expect(paddedRange({ min: 0, max: 0 }, [0], { min: 0, max: 1 })).toEqual({ min: 0, max: 1 })
    expect(paddedRange(null, [0], { min: 0, max: 1 })).toEqual({ min: 0, max: 1 })
  })

  it('steps by 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(1, 4)).toBe(0.2)
    expect(niceStep(100, 5)).toBe(20)
    expect(niceStep(7, 4)).toBe(2)
    expect(niceStep(4000, 4)).toBe(1000)
  })

  it('puts ticks on multiples of the step', () => {
    const clean = (ticks: number[]) => ticks.map((t) => Number(t.toFixed(10)))
    expect(clean(niceTicks(0, 1, 4))).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1])
    expect(clean(niceTicks(0.13, 0.61, 4))).toEqual([0.2, 0.3, 0.4, 0.5, 0.6])
    expect(clean(niceTicks(-0.5, 0.5, 4))).toEqual([-0.4, -0.2, 0, 0.2, 0.4])
    expect(niceTicks(-0.5, 0.5, 4).some((t) => Object.is(t, 0))).toBe(true) // not -0, printed "-0"
    expect(niceTicks(3, 3, 4)).toEqual([3])
    expect(niceTicks(NaN, 1, 4)).toEqual([])
  })

  it('gives whole rounds only on the round axis', () => {
    expect(integerTicks(0, 3, 6)).toEqual([0, 1, 2, 3])
    expect(integerTicks(0, 499, 6)).toEqual([0, 100, 200, 300, 400])
    expect(integerTicks(7, 7.5, 6)).toEqual([7])
  })

  it('labels ticks with the digits the step needs', () => {
    expect(tickLabel(0.2, 0.2)).toBe('0.2')
    expect(tickLabel(0.25, 0.05)).toBe('0.25')
    expect(tickLabel(1e-17, 0.1)).toBe('0')
    expect(tickLabel(40, 20)).toBe('40')
    expect(tickLabel(2000, 1000)).toBe('2k')
    expect(tickLabel(1500, 500)).toBe('1.5k')
  })
})
