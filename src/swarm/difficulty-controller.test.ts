import { describe, expect, it } from 'vitest'
import { nextDifficulty } from './difficulty-controller.ts'

const rounds = (before: number, after: number) => [
  ...Array.from({ length: 10 }, () => before),
  ...Array.from({ length: 10 }, () => after),
]

describe('nextDifficulty', () => {
  it('goes up one level when the last 10 rounds beat the 10 before by more than 0.05', () => {
    expect(nextDifficulty(2, rounds(0.3, 0.36))).toBe(3)
  })
  it('goes down one level when they fall short by more than 0.05', () => {
    expect(nextDifficulty(2, rounds(0.36, 0.3))).toBe(1)
  })
  it('stays within ±0.05, and within 1–5', () => {
    expect(nextDifficulty(3, rounds(0.3, 0.34))).toBe(3)
    expect(nextDifficulty(5, rounds(0, 1))).toBe(5)
    expect(nextDifficulty(1, rounds(1, 0))).toBe(1)
  })
  it('only decides every 5 rounds, once two full windows exist', () => {
    expect(nextDifficulty(2, rounds(0, 1).slice(0, 15))).toBe(2)
    expect(nextDifficulty(2, [...rounds(0, 1), 1])).toBe(2)
    expect(nextDifficulty(2, [...rounds(0, 0), 1, 1, 1, 1, 1])).toBe(3)
  })
})
