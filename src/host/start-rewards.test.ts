import { describe, expect, it } from 'vitest'
import type { RewardSubmitter } from './rewards/reward-submitter.ts'
import { ZERO_CHAIN_TIP, type SubmissionInput } from './rewards/submission-queue.ts'
import { learningStore } from './stores/learning-store.ts'
import { roundRow } from '../../test-support/train/round-row-fixture.ts'
import { roundSubmission, startRewardSubmissions } from './start-rewards.ts'

const SELF = '12D3KooWSelf'
const TIP = 'ab'.repeat(32)

function recorder(): RewardSubmitter & { queued: SubmissionInput[] } {
  const queued: SubmissionInput[] = []
  return { queued, enqueue: (entry) => void queued.push(entry), stop: async () => {} }
}

describe('a round on its way to the chain', () => {
  it('carries the own mean reward in millionths, the chain tip as bytes32, and the best peers as winners', () => {
    const row = roundRow(7, {
      ownReward: 0.75,
      chainTip: TIP,
      peerRewards: {
        '12D3KooWOther': { reward: 0.75, completions: 4 },
        '12D3KooWWeak': { reward: 0.25, completions: 4 },
      },
    })
    expect(roundSubmission(row, SELF)).toEqual({
      round: 7,
      reward: '750000',
      chainTip: `0x${TIP}`,
      winners: ['12D3KooWOther', SELF],
    })
  })

  it('submits nothing for a skipped round, and the zero tip for a round without a step', () => {
    expect(roundSubmission(roundRow(3, { skipped: 'paused by you' }), SELF)).toBeUndefined()
    const idle = roundSubmission(roundRow(4, { ownReward: 0, chainTip: undefined }), SELF)
    expect(idle).toEqual({ round: 4, reward: '0', chainTip: ZERO_CHAIN_TIP, winners: [] })
  })

  it('queues each reported round once it is reported, and says why a round it cannot send is left out', () => {
    const submitter = recorder()
    const rewards = startRewardSubmissions(SELF, submitter)
    rewards.onEvent({ type: 'learning-round', row: roundRow(1, { chainTip: TIP }), peers: {} })
    rewards.onEvent({ type: 'learning-round', row: roundRow(2, { skipped: 'late' }), peers: {} })
    rewards.onEvent({ type: 'learning-eval', point: { round: 1, policyVersion: 2, pass1: 0, tasks: 4 } })
    expect(submitter.queued.map((e) => e.round)).toEqual([1])
    rewards.onEvent({ type: 'learning-round', row: roundRow(5, { chainTip: 'not-a-tip' }), peers: {} })
    expect(submitter.queued).toHaveLength(1)
    expect(learningStore.getState().message).toMatch(/^Round 5's reward cannot go on chain: a chain tip/)
  })
})
