import { describe, expect, it } from 'vitest'
import { minLeadMs, nextRound, roundAt, roundTimes, type RoundClock } from './round-clock.ts'

// rounds of 10 s from t = 1,000,000; windows close 6 s into a round; joining needs 3 s of window left
const clock: RoundClock = { genesisTime: 1_000_000, roundLengthMs: 10_000, windowFraction: 0.6 }
const at = (round: number, intoRound: number) => clock.genesisTime + round * 10_000 + intoRound

describe('the round clock', () => {
  it('places rounds and their windows from genesis', () => {
    expect(roundAt(clock, clock.genesisTime - 1)).toBe(-1)
    expect(roundAt(clock, at(0, 0))).toBe(0)
    expect(roundAt(clock, at(7, 9_999))).toBe(7)
    expect(roundTimes(clock, 3)).toEqual({
      round: 3,
      start: at(3, 0),
      windowCloses: at(3, 6_000),
      end: at(4, 0),
    })
    expect(minLeadMs(clock)).toBe(3_000)
  })

  it('joins the current round while enough of its window is left, else the next one', () => {
    expect(nextRound(clock, at(5, 2_999), undefined)).toEqual({ round: 5, skipped: [] })
    expect(nextRound(clock, at(5, 3_000), undefined)).toEqual({ round: 5, skipped: [] })
    // a late joiner: nothing to report, it was not there
    expect(nextRound(clock, at(5, 3_001), undefined)).toEqual({ round: 6, skipped: [] })
    expect(nextRound(clock, clock.genesisTime - 5_000, undefined)).toEqual({ round: 0, skipped: [] })
  })

  it('runs the next round in time without skipping anything', () => {
    expect(nextRound(clock, at(4, 9_000), 4)).toEqual({ round: 5, skipped: [] })
    expect(nextRound(clock, at(5, 1_000), 4)).toEqual({ round: 5, skipped: [] })
  })

  it('skips the rounds a long previous round overran, saying why for each', () => {
    const next = nextRound(clock, at(7, 5_000), 4)
    expect(next.round).toBe(8)
    expect(next.skipped.map((s) => s.round)).toEqual([5, 6, 7])
    expect(next.skipped[0]!.reason).toMatch(/ran past the end/)
    expect(next.skipped[2]!.reason).toMatch(/too little of its collection window was left \(under 3 s\)/)
  })

  it('never runs a round twice, even when called again within it', () => {
    expect(nextRound(clock, at(5, 1_000), 5)).toEqual({ round: 6, skipped: [] })
  })
})
