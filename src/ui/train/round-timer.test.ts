import { describe, expect, it } from 'vitest'
import { formatCountdown, nextDeadline } from './round-timer.ts'

describe('round timer', () => {
  const t = { round: 7, windowClosesAt: 20_000, roundEndsAt: 30_000 }

  it('counts down to the window, then to the round end, then stays at 0', () => {
    expect(nextDeadline(t, 12_000)).toEqual({ what: 'window closes', remainingMs: 8_000 })
    expect(nextDeadline(t, 20_000)).toEqual({ what: 'round ends', remainingMs: 10_000 })
    expect(nextDeadline(t, 31_000)).toEqual({ what: 'round ends', remainingMs: 0 })
  })

  it('has no deadline before the round clock is known', () => {
    expect(nextDeadline({ round: -1, windowClosesAt: 0, roundEndsAt: 0 }, 5)).toBeNull()
  })

  it('formats like a clock, rounding up so 0:00 means done', () => {
    expect(formatCountdown(5_000)).toBe('0:05')
    expect(formatCountdown(4_001)).toBe('0:05')
    expect(formatCountdown(65_000)).toBe('1:05')
    expect(formatCountdown(3_723_000)).toBe('1:02:03')
    expect(formatCountdown(-10)).toBe('0:00')
  })
})
