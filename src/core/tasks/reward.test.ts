import { describe, expect, it } from 'vitest'
import { CODEZERO_REWARD, shapeReward } from './reward.ts'

const short = { isString: true as const, tokens: 100 }
const long = { isString: true as const, tokens: 256 }

describe('shapeReward (CodeZero)', () => {
  it.each([
    ['not a string', { isString: false as const }, { format: -1.2, correctness: 0, length: 0, total: -1.2 }],
    [
      'unformatted, short',
      { ...short, formatted: false, correct: false },
      { format: -1, correctness: 0, length: 0.2, total: -0.8 },
    ],
    [
      'unformatted, at the limit',
      { ...long, formatted: false, correct: false },
      { format: -1, correctness: 0, length: -0.2, total: -1.2 },
    ],
    [
      'wrong, short',
      { ...short, formatted: true, correct: false },
      { format: 0, correctness: 0, length: 0.2, total: 0.2 },
    ],
    [
      'right, short',
      { ...short, formatted: true, correct: true },
      { format: 0, correctness: 1, length: 0.2, total: 1.2 },
    ],
    [
      'right, at the limit',
      { ...long, formatted: true, correct: true },
      { format: 0, correctness: 1, length: -0.2, total: 0.8 },
    ],
  ])('%s', (_, outcome, expected) => {
    const reward = shapeReward(outcome)
    for (const [part, value] of Object.entries(expected))
      expect(reward[part as keyof typeof reward]).toBeCloseTo(value, 12)
  })

  it('keeps every total within [-1.2, 1.2] with the default weights', () => {
    for (const formatted of [true, false])
      for (const correct of [true, false])
        for (const tokens of [0, 255, 256, 1000]) {
          const { total } = shapeReward({ isString: true, formatted, correct, tokens })
          expect(Math.abs(total)).toBeLessThanOrEqual(1.2 + 1e-12)
        }
  })

  it('takes its weights and token limit from the config', () => {
    const config = { ...CODEZERO_REWARD, correct: 2, lengthBonus: 0, lengthPenalty: -1, maxTokens: 64 }
    expect(shapeReward({ ...short, formatted: true, correct: true }, config)).toEqual({
      format: 0,
      correctness: 2,
      length: -1,
      total: 1,
    })
    expect(shapeReward({ isString: true, tokens: 63, formatted: true, correct: true }, config).total).toBe(2)
  })
})
