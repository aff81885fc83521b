import { describe, expect, it, vi } from 'vitest'
import { PROTOCOL_VERSION, encodeEnvelope, type Envelope } from '../swarm/envelope.ts'
import { createGossipValidator } from '../swarm/gossip-validator.ts'
import { makePresenceBody } from '../swarm/presence.ts'
import { topicFor } from '../swarm/topics.ts'
import { BLOCK_AFTER_REJECTS, BLOCK_MS } from './constants.ts'
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

  it('refuses an unsigned message and counts it', () => {
    const { gate, stats } = setup()
    expect(gate.judge(TOPIC, presence(ALICE, T0), null, FORWARDER)).toBe('reject')
    expect(stats.sample(T0).stats.rejectedByReason).toEqual({ unsigned: 1 })
  })
})
