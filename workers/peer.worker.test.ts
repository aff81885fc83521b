// Runs the worker module in Node with a stand-in global scope and a real MessageChannel acting as the
// main-thread bridge host.
import { afterAll, describe, expect, it, vi } from 'vitest'
import { animalName } from '../src/core/identity/animal.ts'
import type { BridgeEvent, BridgeMethods } from '../src/peer/peer/bridge-protocol.ts'
import type { RpcNotice, RpcReply, RpcRequest } from '../src/peer/rpc/worker-rpc.ts'
import type { SwarmConfig } from '../src/core/config/swarm-config.ts'
import { PROTOCOL_VERSION, decodeEnvelope, encodeEnvelope } from '../src/core/protocol/envelope.ts'
import type {
  PeerWorkerCommand,
  PeerWorkerEvent,
  PeerWorkerInit,
} from '../src/core/protocol/peer-worker-messages.ts'
import { makePresenceBody, type Capabilities } from '../src/core/protocol/presence.ts'
import { topicFor } from '../src/core/protocol/topics.ts'

const SWARM = 'ab'.repeat(32)
const TOPIC = topicFor(SWARM, 'presence')
const SELF = '12D3KooWSelfPeer'
const ALICE = '12D3KooWAlicePeer'
const capabilities: Capabilities = { webgpu: null, cores: 4, memoryGb: null }
const config: SwarmConfig = {
  version: 1,
  name: 'test',
  genesisTime: 0,
  roundLengthMs: 60_000,
  relays: [],
  iceServers: [],
}

const posted: PeerWorkerEvent[] = []
const scope = {
  onmessage: null as ((event: { data: PeerWorkerCommand }) => void) | null,
  postMessage: (message: PeerWorkerEvent) => void posted.push(message),
  close: vi.fn(),
}
const command = (data: PeerWorkerCommand): void => scope.onmessage?.({ data })

// The bridge host's side: answers every request and records it.
const channel = new MessageChannel()
const requests: RpcRequest<BridgeMethods>[] = []
channel.port1.onmessage = ({ data }: MessageEvent<RpcRequest<BridgeMethods>>) => {
  requests.push(data)
  const reply: RpcReply = { id: data.id, result: data.method === 'publish' ? 1 : undefined }
  channel.port1.postMessage(reply)
}
const published = () =>
  requests.flatMap((r) => {
    if (r.method !== 'publish') return []
    const decoded = decodeEnvelope(r.params.data)
    return decoded.ok ? [{ topic: r.params.topic, envelope: decoded.envelope }] : []
  })
const lastState = () => posted.filter((m) => m.type === 'state').at(-1)?.state

afterAll(() => {
  channel.port1.close()
  vi.unstubAllGlobals()
})

describe('peer.worker', () => {
  it('ignores commands before init', async () => {
    vi.stubGlobal('self', scope)
    await import('./peer.worker.ts')
    expect(scope.onmessage).toBeTypeOf('function')
    command({ type: 'leave' })
    expect(posted).toEqual([])
  })

  it('on init, subscribes through the bridge, announces itself and posts its state', async () => {
    const init: PeerWorkerInit = {
      type: 'init',
      port: channel.port2,
      config,
      swarmId: SWARM,
      self: { peerId: SELF, name: animalName(SELF) },
      appVersion: '0.1.0',
      capabilities,
    }
    command(init)
    await vi.waitFor(() => expect(published()).toHaveLength(1))
    expect(requests[0]).toMatchObject({ method: 'subscribe', params: { topic: TOPIC } })
    expect(published()[0]).toMatchObject({
      topic: TOPIC,
      envelope: { from: SELF, kind: 'presence', body: { name: animalName(SELF), leaving: false } },
    })
    await vi.waitFor(() => expect(lastState()?.presenceSent).toBe(1))
  })

  it('reports peers it hears, named by animalName', async () => {
    const body = makePresenceBody({ name: animalName(ALICE), appVersion: '0.1.0', capabilities })
    const data = encodeEnvelope({
      v: PROTOCOL_VERSION,
      swarmId: SWARM,
      round: 0,
      from: ALICE,
      ts: Date.now(),
      kind: 'presence',
      body,
    })
    const misnamed = encodeEnvelope({
      v: PROTOCOL_VERSION,
      swarmId: SWARM,
      round: 0,
      from: SELF,
      ts: Date.now(),
      kind: 'presence',
      body,
    })
    const event = (from: string, bytes: Uint8Array): RpcNotice<BridgeEvent> => ({
      notice: { event: 'message', topic: TOPIC, from, data: bytes, receivedAt: 0 },
    })
    channel.port1.postMessage(event(SELF, misnamed))
    channel.port1.postMessage(event(ALICE, data))
    await vi.waitFor(() => expect(Object.keys(lastState()?.peers ?? {})).toEqual([ALICE]))
    expect(lastState()?.peers[ALICE]?.name).toBe(animalName(ALICE))
  })

  it('on leave, publishes a leaving presence, answers left and closes', async () => {
    command({ type: 'pause' })
    command({ type: 'leave' })
    await vi.waitFor(() => expect(posted.at(-1)).toEqual({ type: 'left' }))
    expect(published().at(-1)?.envelope.body).toMatchObject({ leaving: true })
    expect(requests.at(-1)).toMatchObject({ method: 'unsubscribe', params: { topic: TOPIC } })
    expect(scope.close).toHaveBeenCalledOnce()
  })
})
