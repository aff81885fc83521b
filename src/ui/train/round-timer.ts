// The round timer of the Train view: what the loop is doing, in words, and the next deadline of the
// round (the collection window, then the round's end) with the time left. Pure: the view passes `now`.
import type { LearningPhase } from '../../core/learning/learning-state.ts'

export const PHASE_LABELS: Record<LearningPhase, string> = {
  off: 'Not learning',
  loading: 'Loading the model',
  sampling: 'Sampling completions',
  collecting: 'Collecting rollouts',
  training: 'Training (GRPO step)',
  waiting: 'Waiting for the next round',
  error: 'Stopped by an error',
}

export type PhaseTone = 'good' | 'warn' | 'bad' | 'muted'

export const PHASE_TONES: Record<LearningPhase, PhaseTone> = {
  off: 'muted',
  loading: 'warn',
  sampling: 'good',
  collecting: 'good',
  training: 'good',
  waiting: 'muted',
  error: 'bad',
}

export interface Deadline {
  what: 'window closes' | 'round ends'
  /** ms left, 0 once it passed */
  remainingMs: number
}

/** The next deadline of the round at `now`; null before the first round is known. */
export function nextDeadline(
  t: { round: number; roundEndsAt: number; windowClosesAt: number },
  now: number,
): Deadline | null {
  if (t.round < 0 || t.roundEndsAt <= 0) return null
  if (now < t.windowClosesAt) return { what: 'window closes', remainingMs: t.windowClosesAt - now }
  return { what: 'round ends', remainingMs: Math.max(0, t.roundEndsAt - now) }
}

/** A countdown as a clock shows it: 5_000 → "0:05", 65_000 → "1:05", 3_723_000 → "1:02:03". */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = String(total % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}
