import { describe, expect, it } from 'vitest'
import {
  FEED_LIMIT,
  initialLearningState,
  useLearningStore,
  type HeardRollout,
} from '../state/learning-store.ts'
import type { Receipt } from '../verify/receipt-schema.ts'
import { roundRow } from './train/round-row-fixture.ts'
import { applyLearningEvent, learningUpdate, resetLearning } from './start-learning.ts'

const heard = (i: number): HeardRollout => ({
  from: 'p',
  name: 'n',
  round: 1,
  family: 'arithmetic',
  prompt: 'q',
  answer: `a${i}`,
  claimedReward: 0,
  reward: 0,
  receivedAt: i,
})

describe('the learning store feed', () => {
  it('follows the phases, rounds, evaluations and model', () => {
    const s = initialLearningState()
    expect(
      learningUpdate(s, {
        type: 'learning-phase',
        phase: 'collecting',
        round: 4,
        roundEndsAt: 9,
        windowClosesAt: 7,
      }),
    ).toEqual({ phase: 'collecting', round: 4, roundEndsAt: 9, windowClosesAt: 7 })
    const row = roundRow(4)
    const peers = {
      p: { name: 'n', rounds: 1, lastRound: 4, rewardSum: 1, completions: 2, refused: 0, score: 1 },
    }
    expect(learningUpdate({ ...s, rounds: [roundRow(3)] }, { type: 'learning-round', row, peers })).toEqual({
      rounds: [roundRow(3), row],
      peers,
    })
    const point = { round: 4, policyVersion: 5, pass1: 0.5, tasks: 12 }
    expect(learningUpdate(s, { type: 'learning-eval', point })).toEqual({ evals: [point] })
    const model = { name: 'm', parameters: 10, weightsHash: 'h', policyVersion: 5 }
    expect(learningUpdate(s, { type: 'learning-model', model })).toEqual({ model })
  })

  it('keeps the feed newest first and capped', () => {
    const s = { ...initialLearningState(), feed: Array.from({ length: FEED_LIMIT }, (_, i) => heard(-i)) }
    const { feed } = learningUpdate(s, { type: 'learning-heard', rollouts: [heard(1), heard(2)] })
    expect(feed).toHaveLength(FEED_LIMIT)
    expect(feed!.slice(0, 3).map((h) => h.answer)).toEqual(['a2', 'a1', 'a0'])
  })

  it('says what went wrong, and only a fatal error stops the phase', () => {
    const s = { ...initialLearningState(), phase: 'training' as const }
    expect(learningUpdate(s, { type: 'learning-error', message: 'm', fatal: false })).toEqual({
      message: 'm',
    })
    expect(learningUpdate(s, { type: 'learning-error', message: 'm', fatal: true })).toEqual({
      phase: 'error',
      message: 'm',
    })
  })

  it('feeds the store from worker events and ignores the others', () => {
    resetLearning(true)
    expect(useLearningStore.getState().phase).toBe('loading')
    const receipt = { receiptHash: 'r' } as Receipt
    expect(applyLearningEvent({ type: 'learning-receipt', round: 2, receipt })).toBe(true)
    expect(applyLearningEvent({ type: 'left' })).toBe(false)
    expect(useLearningStore.getState().receipts).toEqual([receipt])
    resetLearning(false)
    expect(useLearningStore.getState()).toMatchObject({ phase: 'off', receipts: [] })
  })
})
