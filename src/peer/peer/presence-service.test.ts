import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type SwarmConfig } from '../../core/config/swarm-config.ts'
import { roundAt } from '../../core/learning/round-clock.ts'
import type { BridgeEvent } from './bridge-protocol.ts'
import {
  PROTOCOL_VERSION,
  decodeEnvelope,
  encodeEnvelope,
  type Envelope,
} from '../../core/protocol/envelope.ts'
import {
  PEER_TIMEOUT_MS,
  PRESENCE_INTERVAL_MS,
  STATE_INTERVAL_MS,
  createPresenceService,
  type PresenceServiceOptions,
} from './presence-service.ts'
import { type PresenceState } from '../../core/protocol/presence.ts'
import { makePresenceBody, type Capabilities, type PresenceBody } from '../../core/protocol/presence.ts'
import { topicFor } from '../../core/protocol/topics.ts'

const SWARM = 'ab'.repeat(32)
const TOPIC = topicFor(SWARM, 'presence')
const SELF = '12D3KooWSelf'
const ALICE = '12D3KooWAlice'
const BOB = '12D3KooWBob'
const T0 = 1_800_000_000_000
const config: SwarmConfig = {
  version: 1,
  name: 'test',
  genesisTime: T0 - 10_000,
  roundLengthMs: 60_000,
  relays: [],
  iceServers: [],
}
const capabilities: Capabilities = { webgpu: null, cores: 4, memoryGb: 8 }
const nameOf = (peerId: string): string => `name of ${peerId}`

type MessageEvent = Extract<BridgeEvent, { event: 'message' }>

function fakeBridge() {
  const published: Array<{ topic: string; envelope: Envelope }> = []
  const subscribed = new Set<string>()
  const listeners = new Set<(e: MessageEvent) => void>()
  const control = { failPublish: false }
  const bridge: PresenceServiceOptions['bridge'] = {
    async subscribe(topic) {
      subscribed.add(topic)
    },
    async unsubscribe(topic) {
      subscribed.delete(topic)
    },
    async publish(topic, data) {
      if (control.failPublish) throw new Error('no peers subscribed')
      const decoded = decodeEnvelope(data)
      if (!decoded.ok) throw new Error('published bytes are no envelope')
      published.push({ topic, envelope: decoded.envelope })
      return 1
    },
    on(event, listener) {
      if (event !== 'message') throw new Error(`unexpected listener for ${event}`)
      const l = listener as (e: MessageEvent) => void
      listeners.add(l)
      return () => listeners.delete(l)
    },
  }
  const deliver = (from: string, data: Uint8Array, topic = TOPIC): void => {
    for (const l of listeners) l({ event: 'message', topic, from, data, receivedAt: Date.now() })
  }
  return { bridge, published, subscribed, listeners, control, deliver }
}

const presenceOf = (from: string, over: Partial<PresenceBody> = {}): PresenceBody => ({
  ...makePresenceBody({ name: nameOf(from), appVersion: '0.1.0', capabilities }),
  ...over,
})
const envelopeBytes = (from: string, over: Partial<Envelope> = {}, body = presenceOf(from)): Uint8Array =>
  encodeEnvelope({
    v: PROTOCOL_VERSION,
    swarmId: SWARM,
    round: 0,
    from,
    ts: Date.now(),
    kind: 'presence',
    body,
    ...over,
  })

function setup(over: Partial<PresenceServiceOptions> = {}) {
  const fake = fakeBridge()
  const states: Array<{ at: number; state: PresenceState }> = []
  const service = createPresenceService({
    bridge: fake.bridge,
    config,
    swarmId: SWARM,
    self: { peerId: SELF, name: nameOf(SELF) },
    appVersion: '0.1.0',
    capabilities,
    nameOf,
    onState: (state) => states.push({ at: Date.now(), state }),
    ...over,
  })
  const last = (): PresenceState => {
    const entry = states.at(-1)
    if (!entry) throw new Error('no state reported yet')
    return entry.state
  }
  const hear = (from: string, body?: PresenceBody): void =>
    fake.deliver(from, envelopeBytes(from, {}, body ?? presenceOf(from)))
  return { ...fake, service, states, last, hear }
}

const settle = async (): Promise<void> => {
  await vi.advanceTimersByTimeAsync(STATE_INTERVAL_MS)
}

beforeEach(() => {
  vi.useFakeTimers({ now: T0 })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('createPresenceService', () => {
  it('subscribes to the presence topic and announces itself at once', async () => {
    const { service, subscribed, published } = setup()
    await service.start()
    expect([...subscribed]).toEqual([TOPIC])
    expect(published).toHaveLength(1)
    expect(published[0]).toEqual({
      topic: TOPIC,
      envelope: {
        v: PROTOCOL_VERSION,
        swarmId: SWARM,
        round: roundAt(config, T0),
        from: SELF,
        ts: T0,
        kind: 'presence',
        body: makePresenceBody({ name: nameOf(SELF), appVersion: '0.1.0', capabilities }),
      },
    })
  })

  it('publishes every PRESENCE_INTERVAL_MS and reports how many it sent', async () => {
    const { service, published, last } = setup()
    await service.start()
    await vi.advanceTimersByTimeAsync(3 * PRESENCE_INTERVAL_MS)
    expect(published).toHaveLength(4)
    expect(published.map((p) => p.envelope.ts - T0)).toEqual(
      [0, 1, 2, 3].map((i) => i * PRESENCE_INTERVAL_MS),
    )
    await settle()
    expect(last().presenceSent).toBe(4)
  })

  it('does not count presence the node refused, and retries on the next beat', async () => {
    const { service, control, published, last } = setup()
    control.failPublish = true
    await service.start()
    await settle()
    expect(last().presenceSent).toBe(0)
    control.failPublish = false
    await vi.advanceTimersByTimeAsync(PRESENCE_INTERVAL_MS)
    await settle()
    expect(published).toHaveLength(1)
    expect(last().presenceSent).toBe(1)
  })

  it('keeps a table of the peers it hears', async () => {
    const { service, hear, last } = setup()
    await service.start()
    hear(ALICE)
    await vi.advanceTimersByTimeAsync(1000)
    hear(ALICE, presenceOf(ALICE, { appVersion: '0.2.0' }))
    hear(BOB)
    await settle()
    expect(last().peers).toEqual({
      [ALICE]: {
        peerId: ALICE,
        name: nameOf(ALICE),
        appVersion: '0.2.0',
        capabilities,
        firstSeen: T0,
        lastSeen: T0 + 1000,
        presenceCount: 2,
      },
      [BOB]: {
        peerId: BOB,
        name: nameOf(BOB),
        appVersion: '0.1.0',
        capabilities,
        firstSeen: T0 + 1000,
        lastSeen: T0 + 1000,
        presenceCount: 1,
      },
    })
  })

  it('removes a peer at once when it says it is leaving', async () => {
    const { service, hear, last } = setup()
    await service.start()
    hear(ALICE)
    hear(BOB)
    await settle()
    hear(ALICE, presenceOf(ALICE, { leaving: true }))
    await settle()
    expect(Object.keys(last().peers)).toEqual([BOB])
  })

  it('drops peers silent for longer than PEER_TIMEOUT_MS and keeps those still beating', async () => {
    const { service, hear, last } = setup()
    await service.start()
    hear(ALICE)
    hear(BOB)
    for (let t = 0; t < PEER_TIMEOUT_MS + PRESENCE_INTERVAL_MS; t += PRESENCE_INTERVAL_MS) {
      await vi.advanceTimersByTimeAsync(PRESENCE_INTERVAL_MS)
      hear(BOB)
      if (t < PEER_TIMEOUT_MS - PRESENCE_INTERVAL_MS)
        expect(Object.keys(last().peers).sort()).toEqual([ALICE, BOB])
    }
    await settle()
    expect(Object.keys(last().peers)).toEqual([BOB])
  })

  it('ignores presence it cannot trust', async () => {
    const { service, deliver, hear, states, last } = setup()
    await service.start()
    await settle()
    const reports = states.length
    deliver(ALICE, new TextEncoder().encode('not json'))
    deliver(ALICE, envelopeBytes(ALICE), topicFor(SWARM, 'rollouts'))
    deliver(ALICE, envelopeBytes(BOB)) // from ≠ signer
    deliver(ALICE, envelopeBytes(ALICE, { swarmId: 'cd'.repeat(32) }))
    deliver(ALICE, envelopeBytes(ALICE, { kind: 'rollouts' }))
    hear(ALICE, presenceOf(BOB)) // someone else's name
    hear(ALICE, { ...presenceOf(ALICE), capabilities: { ...capabilities, cores: 0 } })
    hear(SELF) // our own message, echoed
    await settle()
    expect(states.length).toBe(reports)
    expect(last().peers).toEqual({})
  })

  it('reports at most every STATE_INTERVAL_MS, batching changes', async () => {
    const { service, hear, states, last } = setup()
    await service.start()
    for (let i = 0; i < 50; i++) {
      hear(`12D3KooWPeer${i}`)
      await vi.advanceTimersByTimeAsync(20)
    }
    await settle()
    const gaps = states.slice(1).map((s, i) => s.at - states[i]!.at)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(STATE_INTERVAL_MS)
    expect(states.length).toBeLessThanOrEqual(1 + Math.ceil((50 * 20) / STATE_INTERVAL_MS) + 1)
    expect(Object.keys(last().peers)).toHaveLength(50)
    // Nothing changed: nothing reported.
    const reports = states.length
    await vi.advanceTimersByTimeAsync(1000)
    expect(states.length).toBe(reports)
  })

  it('reports the round as it moves', async () => {
    const { service, last } = setup({ config: { ...config, roundLengthMs: 5_000 } })
    await service.start()
    await settle()
    const first = last().round
    expect(first).toBe(roundAt({ ...config, roundLengthMs: 5_000 }, Date.now()))
    await vi.advanceTimersByTimeAsync(5_000 + PRESENCE_INTERVAL_MS)
    await settle()
    expect(last().round).toBe(first + 1)
  })

  it('stops publishing while paused but keeps listening, and announces itself on resume', async () => {
    const { service, published, hear, last } = setup()
    await service.start()
    service.pause()
    await vi.advanceTimersByTimeAsync(4 * PRESENCE_INTERVAL_MS)
    expect(published).toHaveLength(1)
    hear(ALICE)
    await settle()
    expect(Object.keys(last().peers)).toEqual([ALICE])
    service.resume()
    await vi.advanceTimersByTimeAsync(0)
    expect(published).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(PRESENCE_INTERVAL_MS)
    expect(published).toHaveLength(3)
  })

  it('leaves with a leaving presence, then stops everything', async () => {
    const { service, published, subscribed, listeners, states, hear } = setup()
    await service.start()
    await settle()
    service.pause()
    await service.leave()
    expect(published.at(-1)?.envelope.body).toEqual({ ...presenceOf(SELF), leaving: true })
    expect(subscribed.size).toBe(0)
    expect(listeners.size).toBe(0)
    const counts = { published: published.length, states: states.length }
    hear(ALICE)
    await vi.advanceTimersByTimeAsync(10 * PRESENCE_INTERVAL_MS)
    expect({ published: published.length, states: states.length }).toEqual(counts)
    await service.leave()
    await service.start()
    expect(published.length).toBe(counts.published)
  })

  it('leaves quietly when it never started', async () => {
    const { service, published, subscribed } = setup()
    await service.leave()
    await service.start()
    expect(published).toHaveLength(0)
    expect(subscribed.size).toBe(0)
  })

  it('rejects start when the subscription fails', async () => {
    const fake = fakeBridge()
    const bridge = { ...fake.bridge, subscribe: () => Promise.reject(new Error('node stopped')) }
    const { service } = setup({ bridge })
    await expect(service.start()).rejects.toThrow('node stopped')
  })
})
