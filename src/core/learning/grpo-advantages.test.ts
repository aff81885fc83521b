import { describe, expect, it } from 'vitest'
import { ADVANTAGE_EPS, groupAdvantages, isInformative } from './grpo-advantages.ts'

describe('groupAdvantages', () => {
  it('centres rewards on the group mean in units of its standard deviation', () => {
    // mean 0.5, population std 0.5
    const a = groupAdvantages([1, 0, 1, 0])
    const unit = 0.5 / (0.5 + ADVANTAGE_EPS)
    expect(a).toEqual([unit, -unit, unit, -unit])
    expect(a.reduce((x, y) => x + y, 0)).toBeCloseTo(0, 12)
  })

  it('gives a flat group zero advantage, which makes it teach nothing', () => {
    expect(groupAdvantages([0.2, 0.2, 0.2])).toEqual([0, 0, 0])
    expect(isInformative([0.2, 0.2])).toBe(false)
    expect(isInformative([0.2, 1.2])).toBe(true)
  })

  it('ranks completions by reward', () => {
    const a = groupAdvantages([-1, 1.2, 0.2])
    expect(a[1]).toBeGreaterThan(a[2]!)
    expect(a[2]).toBeGreaterThan(a[0]!)
  })
})
