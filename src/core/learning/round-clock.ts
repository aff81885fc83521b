// The round clock of a learning peer: round r starts at genesis + r·length, its collection window closes
// at windowFraction of the round, and it ends where round r + 1 starts. Which round a peer runs next
// follows from the clock alone: a peer that joins with too little time left before the window closes
// waits for the next round, and one whose previous round ran long skips the rounds whose windows it
// missed, saying so for each. Pure: every function takes `now`.

export interface RoundClock {
  /** ms since the Unix epoch when round 0 starts */
  genesisTime: number
  roundLengthMs: number
  /** the part of a round after which its collection window closes, in (0, 1) */
  windowFraction: number
}

export interface RoundTimes {
  round: number
  /** ms since the Unix epoch */
  start: number
  windowCloses: number
  end: number
}

/**
 * Least time to the window's close for a peer to take part in a round: the share of the window it
 * needs to sample and publish its groups before the others stop listening.
 */
export const MIN_LEAD_FRACTION = 0.5

/** The round at `now`, −1 before genesis (the swarm config's clock is one: it has both fields). */
export function roundAt(clock: Pick<RoundClock, 'genesisTime' | 'roundLengthMs'>, now: number): number {
  if (now < clock.genesisTime) return -1
  return Math.floor((now - clock.genesisTime) / clock.roundLengthMs)
}

export function roundTimes(clock: RoundClock, round: number): RoundTimes {
  const start = clock.genesisTime + round * clock.roundLengthMs
  return {
    round,
    start,
    windowCloses: start + Math.round(clock.roundLengthMs * clock.windowFraction),
    end: start + clock.roundLengthMs,
  }
}

/** Least time before the window closes that a peer needs to join a round (MIN_LEAD_FRACTION of the window). */
export const minLeadMs = (clock: RoundClock): number =>
  Math.round(clock.roundLengthMs * clock.windowFraction * MIN_LEAD_FRACTION)

export interface SkippedRound {
  round: number
  /** a sentence for the user */
  reason: string
}

export interface NextRound {
  /** the round to run; it may start in the future (then wait for `roundTimes(round).start`) */
  round: number
  /** rounds after `lastRun` that will not be run, oldest first, each with why */
  skipped: SkippedRound[]
}

/**
 * The round a peer ready at `now` runs next. `lastRun` is the last round it ran in this session
 * (undefined for a fresh start): the rounds between it and the next one are reported as skipped.
 */
export function nextRound(clock: RoundClock, now: number, lastRun: number | undefined): NextRound {
  const current = Math.max(0, roundAt(clock, now))
  const joinable = roundTimes(clock, current).windowCloses - now >= minLeadMs(clock)
  const round = now < clock.genesisTime || joinable ? current : current + 1
  const skipped: SkippedRound[] = []
  if (lastRun !== undefined)
    for (let r = lastRun + 1; r < round; r++)
      skipped.push({
        round: r,
        reason:
          r < current
            ? 'the previous round ran past the end of this one (sampling or training took longer than a round)'
            : `too little of its collection window was left (under ${Math.round(minLeadMs(clock) / 1000)} s) when the previous round finished`,
      })
  return { round: Math.max(round, (lastRun ?? -1) + 1), skipped }
}
