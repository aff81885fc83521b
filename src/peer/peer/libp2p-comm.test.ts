import { describe, expect, it } from 'vitest'
import type { BridgeEvent } from './bridge-protocol.ts'
import {
  decodeEnvelope,
  encodeEnvelope,
  PROTOCOL_VERSION,
  type Envelope,
} from '../../core/protocol/envelope.ts'
import { createLibp2pComm, type Libp2pCommOptions } from './libp2p-comm.ts'
import { topicFor } from '../../core/protocol/topics.ts'

const SWARM = 'a'.repeat(64)
const TOPIC = topicFor(SWARM, 'rollouts')
type Message = Extract<BridgeEvent, { event: 'message' }>

function fakeBridge() {
  const published: { topic: string; envelope: Envelope }[] = []
  const subscribed = new Set<string>()
  const listeners = new Set<(e: Message) => void>()
  const bridge: Libp2pCommOptions['bridge'] = {
    async subscribe(topic) {
      subscribed.add(topic)
    },
    async unsubscribe(topic) {
      subscribed.delete(topic)
    },
    async publish(topic, data) {
      const decoded = decodeEnvelope(data)
      if (!decoded.ok) throw new Error('published bytes are no envelope')
      published.push({ topic, envelope: decoded.envelope })
      return 1
    },
    on(_event, listener) {
      const l = listener as (e: Message) => void
      listeners.add(l)
      return () => listeners.delete(l)
    },
  }
  const deliver = (from: string, data: Uint8Array, topic = TOPIC) => {
    for (const l of listeners) l({ event: 'message', topic, from, data, receivedAt: 0 })
  }
  return { bridge, published, subscribed, listeners, deliver }
}

const envelope = (from: string, over: Partial<Envelope> = {}) =>
  encodeEnvelope({
    v: PROTOCOL_VERSION,
    swarmId: SWARM,
    round: 4,
    from,
    ts: 1,
    kind: 'rollouts',
    body: { groups: [] },
    ...over,
  })

describe('rollout sharing over the bridge', () => {
  it('subscribes to and publishes rollouts and receipts, in signed envelopes on their topics', async () => {
    const fake = fakeBridge()
    const comm = createLibp2pComm({ bridge: fake.bridge, swarmId: SWARM, peerId: 'me', now: () => 42 })
    await comm.start()
    expect([...fake.subscribed]).toEqual([TOPIC, topicFor(SWARM, 'receipts')])
    await comm.publishRollouts(7, { groups: [] })
    await comm.publish('receipts', 7, { receipt: 'x' })
    expect(fake.published).toEqual([
      {
        topic: TOPIC,
        envelope: {
          v: 1,
          swarmId: SWARM,
          round: 7,
          from: 'me',
          ts: 42,
          kind: 'rollouts',
          body: { groups: [] },
        },
      },
      {
        topic: topicFor(SWARM, 'receipts'),
        envelope: {
          v: 1,
          swarmId: SWARM,
          round: 7,
          from: 'me',
          ts: 42,
          kind: 'receipts',
          body: { receipt: 'x' },
        },
      },
    ])
    await comm.stop()
    expect(fake.subscribed.size).toBe(0)
    expect(fake.listeners.size).toBe(0)
  })

  it("hands others' rollouts to every handler and drops what is not one, without throwing", async () => {
    const fake = fakeBridge()
    const comm = createLibp2pComm({ bridge: fake.bridge, swarmId: SWARM, peerId: 'me' })
    await comm.start()
    const heard: [string, number, unknown][] = []
    comm.onRollouts(() => {
      throw new Error('a buggy handler')
    })
    comm.onRollouts((from, round, body) => heard.push([from, round, body]))
    fake.deliver('bob', envelope('bob'))
    fake.deliver('bob', new TextEncoder().encode('not json'))
    fake.deliver('eve', envelope('bob')) // someone else's envelope
    fake.deliver('bob', envelope('bob', { swarmId: 'b'.repeat(64) }))
    fake.deliver('bob', envelope('bob', { kind: 'presence' }))
    fake.deliver('bob', envelope('bob'), topicFor(SWARM, 'presence'))
    fake.deliver('me', envelope('me'))
    expect(heard).toEqual([['bob', 4, { groups: [] }]])
  })
})
