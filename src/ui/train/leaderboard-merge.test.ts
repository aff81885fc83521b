import { describe, expect, it } from 'vitest'
import type { Leaderboard } from '../../host/rewards/leaderboard.ts'
import { animalName } from '../../core/identity/animal.ts'
import type { PeerLearning } from '../../core/learning/learning-state.ts'
import { REFUSAL } from '../../core/learning/swarm-round.ts'
import { mergeLeaderboard } from './leaderboard-merge.ts'
import { roundRow } from '../../../test-support/train/round-row-fixture.ts'

const SELF = { peerId: '12D3KooWself', name: 'brave quick otter' }

const gossip = (over: Partial<PeerLearning> = {}): PeerLearning => ({
  name: 'calm green heron',
  rounds: 3,
  lastRound: 2,
  rewardSum: 6,
  completions: 12,
  refused: 0,
  score: 1,
  ...over,
})

const entry = (peerId: string, totalRewards: bigint, wins: bigint) => ({
  peerId,
  name: animalName(peerId),
  wallets: [`0xwallet-${peerId}`],
  totalRewards,
  rewardRounds: 4n,
  wins,
  votes: 4n,
})

describe('mergeLeaderboard', () => {
  it('ranks gossip only when there is no chain, with our own rounds as a row', () => {
    const rows = mergeLeaderboard({
      self: SELF,
      rounds: [
        roundRow(0, { ownReward: 0.2 }),
        roundRow(1, { ownReward: 0.4 }),
        roundRow(2, { skipped: 'late' }),
      ],
      groupSize: 2,
      peers: {
        b: gossip({ rewardSum: 9, completions: 12 }),
        c: gossip({ name: 'c', rewardSum: 1, completions: 4 }),
      },
      chain: null,
    })
    expect(rows.map((r) => r.peerId)).toEqual(['b', SELF.peerId, 'c'])
    const self = rows[1]!
    expect(self).toMatchObject({ self: true, name: SELF.name, rounds: 2, lastRound: 1, completions: 8 })
    expect(self.meanReward).toBeCloseTo(0.3)
    expect(rows[0]).toMatchObject({
      meanReward: 0.75,
      registration: 'unknown',
      chainReward: null,
      wins: null,
    })
  })

  it('adds the chain: rewards in task units, wins, verified and unverified registrations', () => {
    const chain: Leaderboard = {
      entries: [entry('c', 2_500_000n, 1n), entry('x', 1_000_000n, 3n)],
      unverified: [
        {
          peerId: 'b',
          wallet: '0xforger',
          totalRewards: 9_000_000n,
          rewardCount: 9n,
          voteCount: 0n,
          verified: false,
        },
      ],
      ignoredVotes: 0,
    }
    const rows = mergeLeaderboard({
      self: SELF,
      rounds: [roundRow(0)],
      groupSize: 2,
      peers: { b: gossip(), c: gossip({ name: 'c' }) },
      chain,
    })
    expect(rows.map((r) => [r.peerId, r.registration, r.chainReward, r.wins])).toEqual([
      ['c', 'verified', 2.5, 1],
      ['x', 'verified', 1, 3],
      // an unproven claim's 9.0 is not counted
      ['b', 'unverified', 0, 0],
      [SELF.peerId, 'unregistered', 0, 0],
    ])
    const x = rows[1]!
    expect(x.name).toBe(animalName('x')) // known from the chain only
    expect(x.rounds).toBe(4)
    expect(x.wallets).toEqual(['0xwallet-x'])
  })

  it('shows refused groups and the lowered trust score of a peer', () => {
    const rows = mergeLeaderboard({
      self: null,
      rounds: [],
      groupSize: 2,
      peers: { bad: gossip({ refused: 3, refusedWhy: { [REFUSAL.rewards]: 3 }, score: 0.25 }) },
      chain: null,
    })
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      refused: 3,
      refusedWhy: { [REFUSAL.rewards]: 3 },
      score: 0.25,
      self: false,
    })
  })

  it('never lists ourselves twice when gossip echoes our id', () => {
    const rows = mergeLeaderboard({
      self: SELF,
      rounds: [],
      groupSize: 2,
      peers: { [SELF.peerId]: gossip() },
      chain: null,
    })
    expect(rows).toHaveLength(1)
    expect(rows[0]!.self).toBe(true)
  })
})
