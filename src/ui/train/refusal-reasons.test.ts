import { describe, expect, it } from 'vitest'
import { REFUSAL } from '../../core/learning/swarm-round.ts'
import { refusalSummary } from './refusal-reasons.ts'

describe('refusalSummary', () => {
  it('lists each reason with its count, most frequent first', () => {
    expect(refusalSummary({ [REFUSAL.tokens]: 1, [REFUSAL.rewards]: 3, [REFUSAL.task]: 0 })).toBe(
      '3 × claimed rewards do not match our verifiers; 1 × its tokens do not decode to its text',
    )
  })

  it('is empty without reasons (records saved before reasons were kept have none)', () => {
    expect(refusalSummary(undefined)).toBe('')
    expect(refusalSummary({})).toBe('')
  })
})
