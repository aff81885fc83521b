import { describe, expect, it, vi } from 'vitest'
import { PROTOCOL_VERSION, encodeEnvelope, type Envelope } from '../../core/protocol/envelope.ts'
import { createGossipValidator } from '../../core/protocol/gossip-validator.ts'
import { makePresenceBody } from '../../core/protocol/presence.ts'
import { topicFor } from '../../core/protocol/topics.ts'
import { BLOCK_AFTER_REJECTS, BLOCK_MS, MAX_BLOCKED_PEERS } from './constants.ts'
import { createGossipGate } from './gossip-gate.ts'
import { createNetStats } from './net-stats.ts'

const SWARM = 'ab'.repeat(32)
const TOPIC = topicFor(SWARM, 'presence')
const T0 = 1_800_000_000_000
const ALICE = '12D3KooWAlice'
const FORWARDER = '12D3KooWForwarder'
const MALLORY = '12D3KooWMallory'

const presence = (from: string, ts: number, over: Partial<Envelope> = {}): Uint8Array =>
  encodeEnvelope({
    v: PROTOCOL_VERSION,
    swarmId: SWARM,
    round: 3,
    from,
    ts,
    kind: 'presence',
    body: makePresenceBody({
      name: `name of ${from}`,
      appVersion: '0.1.0',
      capabilities: { webgpu: null, cores: 4, memoryGb: 8 },
      leaving: false,
    }),
    ...over,
  })
const json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value))

/** The real validator and stats behind a gate, on a clock the test moves. */
function setup() {
  let t = T0
  const now = () => t
  const validator = createGossipValidator({ swarmId: SWARM, now })
  const stats = createNetStats()
  const hangUp = vi.fn<(peer: string) => void>()
  const gate = createGossipGate({
    check: (topic, data, signer) => validator.validate(topic, data, signer),
    stats,
    hangUp,
    now,
  })
  return { gate, stats, hangUp, advance: (ms: number) => void (t += ms), now }
}

describe('createGossipGate', () => {
  it('accepts a valid message and hands its envelope on', async () => {
    const onEnvelope = vi.fn()
    const validator = createGossipValidator({ swarmId: SWARM, now: () => T0 })
    const gate = createGossipGate({
      check: (topic, data, signer) => validator.validate(topic, data, signer),
      stats: createNetStats(),
      hangUp: () => {},
      onEnvelope,
      now: () => T0,
    })
    expect(gate.judge(TOPIC, presence(ALICE, T0), ALICE, FORWARDER)).toBe('accept')
    await Promise.resolve()
    expect(onEnvelope).toHaveBeenCalledWith(expect.objectContaining({ from: ALICE, ts: T0 }), ALICE)
  })

  it(`hangs up on a peer that forwards ${BLOCK_AFTER_REJECTS} invalid messages, once, for BLOCK_MS`, () => {
    const { gate, stats, hangUp, advance } = setup()
    const garbage = json({ not: 'an envelope' })
    for (let i = 0; i < BLOCK_AFTER_REJECTS - 1; i++)
      expect(gate.judge(TOPIC, garbage, MALLORY, MALLORY)).toBe('reject')
    expect(hangUp).not.toHaveBeenCalled()
    expect(gate.judge(TOPIC, garbage, MALLORY, MALLORY)).toBe('reject')
    expect(hangUp).toHaveBeenCalledExactlyOnceWith(MALLORY)
    expect(gate.isBlocked(MALLORY)).toBe(true)
    gate.judge(TOPIC, garbage, MALLORY, MALLORY)
    expect(hangUp).toHaveBeenCalledTimes(1)
    expect(stats.sample(T0).stats).toMatchObject({ rejected: BLOCK_AFTER_REJECTS + 1, blockedPeers: 1 })
    advance(BLOCK_MS + 1)
    expect(gate.isBlocked(MALLORY)).toBe(false)
  })

  it(`remembers at most ${MAX_BLOCKED_PEERS} hung-up peers: a flood of fresh ones forgets the oldest first`, () => {
    const { gate, hangUp } = setup()
    const garbage = json({ not: 'an envelope' })
    const mallory = (i: number) => `${MALLORY}${i}`
    const flood = MAX_BLOCKED_PEERS + 1
    for (let i = 0; i < flood; i++)
      for (let k = 0; k < BLOCK_AFTER_REJECTS; k++) gate.judge(TOPIC, garbage, mallory(i), mallory(i))
    expect(hangUp).toHaveBeenCalledTimes(flood)
    // the newest are still refused; the first has been forgotten (it needs a fresh connection and
    // another BLOCK_AFTER_REJECTS refusals to be hung up on again), so the record is bounded
    expect(gate.isBlocked(mallory(flood - 1))).toBe(true)
    expect(gate.isBlocked(mallory(0))).toBe(false)
  })

  // Eclipse by forwarding: an attacker feeds an honest peer messages 59.5 s old; by the time the honest
  // peer has relayed them they are stale. Refusing them as the forwarder's fault would cut it off.
  it('never hangs up on an honest forwarder that relays 100 messages 59.5 s old (stale on arrival)', () => {
    const { gate, stats, hangUp } = setup()
    for (let i = 0; i < 100; i++) {
      const data = presence(ALICE, T0 - 60_500 + i)
      expect(gate.judge(TOPIC, data, ALICE, FORWARDER)).toBe('ignore')
    }
    expect(hangUp).not.toHaveBeenCalled()
    expect(gate.isBlocked(FORWARDER)).toBe(false)
    const { stats: s } = stats.sample(T0)
    // Still counted by reason for the Swarm view, but not charged to the forwarder.
    expect(s).toMatchObject({
      rejected: 100,
      ignored: 100,
      rejectedByReason: { stale: 100 },
      blockedPeers: 0,
    })
    expect(s.perPeer[FORWARDER]?.rejected ?? 0).toBe(0)
  })

  it('ignores every timing refusal (stale, future, replay, rate-limited): none is the forwarder’s fault', () => {
    const { gate, stats, hangUp } = setup()
    const verdicts = new Set<string>()
    const once = presence(ALICE, T0)
    verdicts.add(gate.judge(TOPIC, once, ALICE, FORWARDER))
    for (let i = 0; i < 100; i++) {
      verdicts.add(gate.judge(TOPIC, once, ALICE, FORWARDER)) // replay
      verdicts.add(gate.judge(TOPIC, presence(ALICE, T0 - 61_000 - i), ALICE, FORWARDER)) // stale
      verdicts.add(gate.judge(TOPIC, presence(ALICE, T0 + 11_000 + i), ALICE, FORWARDER)) // future
      verdicts.add(gate.judge(TOPIC, presence(ALICE, T0 + 1 + i), ALICE, FORWARDER)) // rate-limited beyond the burst
    }
    expect(verdicts).toEqual(new Set(['accept', 'ignore']))
    expect(hangUp).not.toHaveBeenCalled()
    expect(Object.keys(stats.sample(T0).stats.rejectedByReason).sort()).toEqual([
      'future',
      'rate-limited',
      'replay',
      'stale',
    ])
  })

  it('ignores messages of another protocol version: a version bump does not partition the swarm', () => {
    const { gate, stats, hangUp } = setup()
    for (let i = 0; i < 100; i++)
      expect(gate.judge(TOPIC, json({ v: PROTOCOL_VERSION + 1, ts: T0 + i }), ALICE, ALICE)).toBe('ignore')
    expect(hangUp).not.toHaveBeenCalled()
    expect(stats.sample(T0).stats.rejectedByReason).toEqual({ 'unknown-version': 100 })
  })

  it('forgets old refusals: a few invalid messages now and then never add up to a hang-up', () => {
    const { gate, hangUp, advance } = setup()
    const garbage = json({ not: 'an envelope' })
    for (let hour = 0; hour < 24; hour++) {
      for (let i = 0; i < BLOCK_AFTER_REJECTS / 2; i++) gate.judge(TOPIC, garbage, FORWARDER, FORWARDER)
      advance(3_600_000)
    }
    expect(hangUp).not.toHaveBeenCalled()
  })

  it('refuses an unsigned message and counts it', () => {
    const { gate, stats } = setup()
    expect(gate.judge(TOPIC, presence(ALICE, T0), null, FORWARDER)).toBe('reject')
    expect(stats.sample(T0).stats.rejectedByReason).toEqual({ unsigned: 1 })
  })
})
