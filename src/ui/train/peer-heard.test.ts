import { describe, expect, it } from 'vitest'
import type { HeardRollout } from '../../core/learning/learning-state.ts'
import { DROPPED } from '../../core/learning/drop-log.ts'
import { REFUSAL } from '../../core/learning/swarm-round.ts'
import { heardRounds } from './peer-heard.ts'
import { roundRow } from '../../../test-support/train/round-row-fixture.ts'

const heard = (from: string, round: number, claimedReward: number): HeardRollout => ({
  from,
  name: from,
  round,
  family: 'arith',
  prompt: '1+1',
  answer: '2',
  claimedReward,
  reward: undefined,
  receivedAt: round,
})

describe('heardRounds', () => {
  it('lists one peer’s rounds newest first: our reward, refused groups, its claim', () => {
    const rounds = [
      roundRow(1, { peerRewards: { a: { reward: 0.5, completions: 4 } } }),
      roundRow(2, { peerRewards: { b: { reward: 1, completions: 2 } } }),
      roundRow(3, { peerRewards: { a: { reward: 0.25, completions: 2 } }, refusedFrom: { a: 1 } }),
    ]
    const feed = [heard('a', 3, 1), heard('a', 3, 0), heard('b', 3, 1)]
    expect(heardRounds(rounds, feed, 'a')).toEqual([
      { round: 3, completions: 2, reward: 0.25, refused: 1, refusedWhy: {}, claimed: 0.5 },
      { round: 1, completions: 4, reward: 0.5, refused: 0, refusedWhy: {}, claimed: undefined },
    ])
    expect(heardRounds(rounds, feed, 'c')).toEqual([])
  })

  it('shows a round where everything it sent was refused, and why', () => {
    const why = { [REFUSAL.rewards]: 1, [REFUSAL.tokens]: 1 }
    const rounds = [
      roundRow(5, { refusedFrom: { bad: 2 }, refusedWhy: { bad: why, other: { [REFUSAL.task]: 1 } } }),
    ]
    expect(heardRounds(rounds, [], 'bad')).toEqual([
      { round: 5, completions: 0, reward: undefined, refused: 2, refusedWhy: why, claimed: undefined },
    ])
  })

  it('shows a round where its groups were only dropped before judging, uncharged', () => {
    const why = { [DROPPED.closed]: 3 }
    const rounds = [roundRow(6, { refusedWhy: { slow: why } })]
    expect(heardRounds(rounds, [], 'slow')).toEqual([
      { round: 6, completions: 0, reward: undefined, refused: 0, refusedWhy: why, claimed: undefined },
    ])
  })
})
