// Adaptive difficulty: every DIFFICULTY_PERIOD rounds, compare the mean reward of the last
// DIFFICULTY_WINDOW rounds with the window before; a gain above the threshold moves one level up, a
// loss below its negative one level down, always within 1–5.
import type { Difficulty } from '../tasks/task.ts'

export const DIFFICULTY_PERIOD = 5
export const DIFFICULTY_WINDOW = 10
export const DIFFICULTY_THRESHOLD = 0.05

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

/**
 * The difficulty for the round after `rewards` (mean reward per completed round, oldest first).
 * Changes only when the number of rounds is a multiple of the period and two full windows exist.
 */
export function nextDifficulty(current: Difficulty, rewards: readonly number[]): Difficulty {
  const n = rewards.length
  if (n === 0 || n % DIFFICULTY_PERIOD !== 0 || n < 2 * DIFFICULTY_WINDOW) return current
  const delta =
    mean(rewards.slice(n - DIFFICULTY_WINDOW)) -
    mean(rewards.slice(n - 2 * DIFFICULTY_WINDOW, n - DIFFICULTY_WINDOW))
  if (delta > DIFFICULTY_THRESHOLD) return Math.min(5, current + 1) as Difficulty
  if (delta < -DIFFICULTY_THRESHOLD) return Math.max(1, current - 1) as Difficulty
  return current
}
