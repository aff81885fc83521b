import { describe, expect, it } from 'vitest'
import type { Leaderboard } from '../../host/rewards/leaderboard.ts'
import { animalName } from '../../core/identity/animal.ts'
import type { PeerLearning } from '../../core/learning/learning-state.ts'
import { REFUSAL } from '../../core/learning/swarm-round.ts'
import { mergeLeaderboard, splitLeaderboard } from './leaderboard-merge.ts'
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

describe('splitLeaderboard', () => {
  const refusedGossip = (refused: number) =>
    gossip({
      rounds: 0,
      rewardSum: 0,
      completions: 0,
      refused,
      refusedWhy: { [REFUSAL.draw]: refused },
      score: 0.5,
    })

  it('lists senders with nothing but refused groups apart, most refused first, and ranks the rest', () => {
    // what a round attack leaves: dozens of fresh keys, each refused, beside the peers that learn
    const junk = Object.fromEntries(
      Array.from({ length: 36 }, (_, i) => [
        `fresh-${String(i).padStart(2, '0')}`,
        refusedGossip(1 + (i % 3)),
      ]),
    )
    const rows = mergeLeaderboard({
      self: SELF,
      rounds: [roundRow(0, { ownReward: 0.1 })],
      groupSize: 2,
      peers: { ...junk, b: gossip(), c: gossip({ name: 'c', rewardSum: 1, completions: 4, refused: 2 }) },
      chain: null,
    })
    const { ranked, refused } = splitLeaderboard(rows)
    // a peer some of whose groups were refused still learns with us: it stays ranked
    expect(ranked.map((r) => r.peerId)).toEqual(['b', 'c', SELF.peerId])
    expect(refused).toHaveLength(36)
    expect(refused.map((r) => r.refused)).toEqual([...refused.map((r) => r.refused)].sort((x, y) => y - x))
    expect(refused[0]).toMatchObject({ peerId: 'fresh-02', refused: 3 })
    expect(refused.at(-1)).toMatchObject({ peerId: 'fresh-33', refused: 1 })
  })

  it('keeps a refused sender ranked when the chain holds a proven claim of it, never ourselves', () => {
    const rows = mergeLeaderboard({
      self: SELF,
      rounds: [],
      groupSize: 2,
      peers: { r: refusedGossip(4), u: refusedGossip(4) },
      chain: {
        entries: [entry('r', 1_000_000n, 0n)],
        unverified: [
          { peerId: 'u', wallet: '0xu', totalRewards: 5n, rewardCount: 1n, voteCount: 0n, verified: false },
        ],
        ignoredVotes: 0,
      },
    })
    const { ranked, refused } = splitLeaderboard(rows)
    expect(ranked.map((r) => r.peerId)).toEqual(['r', SELF.peerId])
    // an unproven claim earns no rank
    expect(refused.map((r) => [r.peerId, r.registration])).toEqual([['u', 'unverified']])
  })
})
