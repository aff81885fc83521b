import { describe, expect, it } from 'vitest'
import {
  earnedTrust,
  isIgnored,
  MAX_KNOWN_PEERS,
  REFUSAL_PENALTY,
  SCORE_IGNORE,
  SCORE_START,
  updatePeerStanding,
} from './peer-standing.ts'
import { DROPPED } from './drop-log.ts'
import { REFUSAL } from './swarm-round.ts'
import type { PeerLearning } from './learning-state.ts'

const nameOf = (id: string) => `name of ${id}`
const report = (round: number, peerRewards = {}, refusedFrom = {}) => ({ round, peerRewards, refusedFrom })

describe('peer standing', () => {
  it('records a sender: rounds, rewards, completions; the score stays trusted', () => {
    let peers = updatePeerStanding({}, report(4, { a: { reward: 0.5, completions: 4 } }), nameOf)
    peers = updatePeerStanding(peers, report(5, { a: { reward: 1, completions: 2 } }), nameOf)
    expect(peers.a).toEqual({
      name: 'name of a',
      rounds: 2,
      lastRound: 5,
      rewardSum: 4,
      completions: 6,
      refused: 0,
      score: SCORE_START,
    })
    expect(isIgnored(peers, 'a')).toBe(false)
  })

  it('lowers the score for refused groups until the sender is ignored, and lets good rounds win it back', () => {
    let peers = updatePeerStanding({}, report(1, {}, { m: 2 }), nameOf)
    expect(peers.m).toMatchObject({ rounds: 0, refused: 2, completions: 0 })
    expect(peers.m!.score).toBeCloseTo(0.6)
    expect(isIgnored(peers, 'm')).toBe(false)
    peers = updatePeerStanding(peers, report(2, {}, { m: 1 }), nameOf)
    expect(peers.m!.score).toBeLessThan(SCORE_IGNORE)
    expect(isIgnored(peers, 'm')).toBe(true)
    peers = updatePeerStanding(peers, report(3, { m: { reward: 0, completions: 2 } }), nameOf)
    expect(peers.m!.score).toBeCloseTo(0.45)
    // others are untouched; unknown peers are trusted
    expect(Object.keys(peers)).toEqual(['m'])
    expect(isIgnored(peers, 'stranger')).toBe(false)
  })

  it("adds uncharged drops (late, a full pool) to a known sender's reasons, its score kept, and records no stranger for them", () => {
    const late = { [DROPPED.closed]: 2 }
    let peers = updatePeerStanding({}, report(2, { s: { reward: 1, completions: 2 } }), nameOf)
    peers = updatePeerStanding(peers, { ...report(3), refusedWhy: { s: late, stranger: late } }, nameOf)
    expect(peers.s).toMatchObject({ rounds: 1, refused: 0, refusedWhy: late, score: SCORE_START })
    expect(peers.stranger).toBeUndefined()
  })

  it('keeps the count of each refusal reason across rounds, and lowers the score for forged rewards too', () => {
    const why = (m: Record<string, number>) => ({
      round: 1,
      peerRewards: {},
      refusedFrom: { m: 2 },
      refusedWhy: { m },
    })
    let peers = updatePeerStanding({}, why({ [REFUSAL.rewards]: 1, [REFUSAL.task]: 1 }), nameOf)
    peers = updatePeerStanding(peers, { ...why({ [REFUSAL.rewards]: 2 }), round: 2 }, nameOf)
    expect(peers.m).toMatchObject({
      refused: 4,
      refusedWhy: { [REFUSAL.rewards]: 3, [REFUSAL.task]: 1 },
    })
    expect(peers.m!.score).toBeCloseTo(SCORE_START - 4 * REFUSAL_PENALTY)
    // a round without refusals keeps the reasons known so far
    peers = updatePeerStanding(peers, report(3, { m: { reward: 1, completions: 2 } }), nameOf)
    expect(peers.m!.refusedWhy).toEqual({ [REFUSAL.rewards]: 3, [REFUSAL.task]: 1 })
  })

  it('never drops a score below zero', () => {
    const peers = updatePeerStanding({}, report(1, {}, { m: 16 }), nameOf)
    expect(peers.m!.score).toBe(0)
  })
})

describe('peer standing under a flood of strangers', () => {
  it('keeps at most 256 records after 10,000 distinct senders, the honest peer heard every round among them', () => {
    let peers = {}
    for (let round = 0; round < 100; round++) {
      const strangers = Object.fromEntries(
        Array.from({ length: 100 }, (_, i) => [`stranger-${round}-${i}`, 1]),
      )
      peers = updatePeerStanding(
        peers,
        report(round, { honest: { reward: 1, completions: 2 } }, strangers),
        nameOf,
      )
    }
    expect(MAX_KNOWN_PEERS).toBe(256)
    expect(Object.keys(peers).length).toBeLessThanOrEqual(MAX_KNOWN_PEERS)
    expect(peers).toHaveProperty('honest.rounds', 100)
  })

  it('keeps the record (and earned trust) of a peer that missed a round while fresh keys flood it', () => {
    let peers = {}
    for (let round = 0; round < 5; round++)
      peers = updatePeerStanding(peers, report(round, { honest: { reward: 1, completions: 2 } }), nameOf)
    const trust = earnedTrust(peers, 'honest')
    expect(trust).toBeGreaterThan(0)
    // a round the honest peer's groups did not arrive in, and more strangers than are remembered
    const strangers = Object.fromEntries(Array.from({ length: 2 * MAX_KNOWN_PEERS }, (_, i) => [`s${i}`, 1]))
    peers = updatePeerStanding(peers, report(5, {}, strangers), nameOf)
    expect(Object.keys(peers).length).toBeLessThanOrEqual(MAX_KNOWN_PEERS)
    expect(earnedTrust(peers, 'honest')).toBe(trust)
  })
})

describe('earnedTrust', () => {
  const record = (rounds: number, score: number): PeerLearning => ({
    name: 'p',
    rounds,
    lastRound: rounds,
    rewardSum: 0,
    completions: 0,
    refused: 0,
    score,
  })

  it('is 0 for a fresh key and an ignored one, and grows with rounds of accepted groups', () => {
    const peers = { old: record(10, 1), young: record(2, 1), ignored: record(50, SCORE_IGNORE / 2) }
    expect(earnedTrust(peers, 'fresh')).toBe(0)
    expect(earnedTrust(peers, 'ignored')).toBe(0)
    expect(earnedTrust(peers, 'old')).toBeGreaterThan(earnedTrust(peers, 'young'))
    expect(earnedTrust(peers, 'young')).toBeGreaterThan(0)
  })
})
