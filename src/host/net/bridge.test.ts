// The bridge end to end in one process: a worker-side client talks over a real MessageChannel to the
// host, whose libp2p node is a stand-in that connects protocol streams in memory (stream pairs from
// @libp2p/utils), so framing, send/request, errors and timeouts are tested without a network.
import { generateKeyPair } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { streamPair } from '@libp2p/utils'
import type { PrivateKey, Stream } from '@libp2p/interface'
import { afterEach, describe, expect, it } from 'vitest'
import { createBridgeClient, type BridgeClient } from '../../peer/peer/bridge-client.ts'
import { serveBridge, type BridgeHost } from './bridge-host.ts'
import type { BrowserNode } from './create-browser-node.ts'
import type { RpcReply } from '../../peer/rpc/worker-rpc.ts'
import { domainSigner, verifyInDomain, type DomainSigner } from '../../core/identity/signing-domains.ts'

type Handler = (stream: Stream, connection: { remotePeer: { toString(): string } }) => void

interface FakePeer {
  key: PrivateKey
  id: string
  handlers: Map<string, Handler>
  node: BrowserNode
}

const network = new Map<string, FakePeer>()

async function fakePeer(): Promise<FakePeer> {
  const key = await generateKeyPair('Ed25519')
  const id = peerIdFromPrivateKey(key).toString()
  const handlers = new Map<string, Handler>()
  const published: { topic: string; data: Uint8Array }[] = []
  const node = {
    peerId: peerIdFromPrivateKey(key),
    async handle(protocol: string, handler: Handler) {
      handlers.set(protocol, handler)
    },
    async unhandle(protocol: string) {
      handlers.delete(protocol)
    },
    async dialProtocol(peer: { toString(): string }, protocol: string) {
      const remote = network.get(peer.toString())
      const handler = remote?.handlers.get(protocol)
      if (!handler) throw new Error('protocol selection failed')
      const [outbound, inbound] = await streamPair()
      handler(inbound, { remotePeer: { toString: () => id } })
      return outbound
    },
    services: {
      pubsub: {
        subscribe: () => {},
        unsubscribe: () => {},
        async publish(topic: string, data: Uint8Array) {
          published.push({ topic, data })
          return { recipients: [] }
        },
      },
    },
  } as unknown as BrowserNode
  const peer = { key, id, handlers, node }
  network.set(id, peer)
  return peer
}

const open: { client: BridgeClient; host: BridgeHost }[] = []

async function bridgeFor(peer: FakePeer, signer: DomainSigner = domainSigner(peer.key)) {
  const { port1, port2 } = new MessageChannel()
  const host = serveBridge(port1, {
    node: peer.node,
    topology: async () => ({
      peerId: peer.id,
      addrs: [],
      relay: 'reserved',
      relays: [],
      peers: [],
      mesh: {},
    }),
    signer,
    onPublished: () => {},
  })
  const client = createBridgeClient(port2)
  open.push({ client, host })
  return client
}

afterEach(() => {
  for (const { client, host } of open.splice(0)) {
    client.close()
    host.close()
  }
  network.clear()
})

const bytes = (s: string) => new TextEncoder().encode(s)
/** a handler that never answers */
const handleNever = (client: BridgeClient, protocol: string) =>
  client.handle(protocol, () => new Promise<Uint8Array>(() => {}))
const text = (b: Uint8Array) => new TextDecoder().decode(b)

describe('bridge', () => {
  it('answers a request through the other peer’s worker handler', async () => {
    const [a, b] = [await fakePeer(), await fakePeer()]
    const [ca, cb] = [await bridgeFor(a), await bridgeFor(b)]
    await cb.handle('/echo/1', (from, data) =>
      bytes(`${from === a.id ? 'from a' : 'stranger'}: ${text(data)}`),
    )
    const answer = await ca.request(b.id, '/echo/1', bytes('hello'), 5_000)
    expect(text(answer)).toBe('from a: hello')
  })

  it('delivers a one-way send to the handler’s onSend', async () => {
    const [a, b] = [await fakePeer(), await fakePeer()]
    const [ca, cb] = [await bridgeFor(a), await bridgeFor(b)]
    let resolveGot: (s: string) => void = () => {}
    const got = new Promise<string>((resolve) => (resolveGot = resolve))
    await cb.handle(
      '/note/1',
      () => new Uint8Array(),
      (from, data) => resolveGot(`${from}:${text(data)}`),
    )
    await expect(ca.send(b.id, '/note/1', bytes('hi'))).resolves.toEqual({ sentBytes: 2 })
    expect(await got).toBe(`${a.id}:hi`)
  })

  it('gives typed errors: bad peer id, bad protocol, unreachable peer, timeout', async () => {
    const [a, b] = [await fakePeer(), await fakePeer()]
    const [ca, cb] = [await bridgeFor(a), await bridgeFor(b)]
    await expect(ca.send('not-a-peer', '/x/1', bytes('x'))).rejects.toMatchObject({ code: 'bad-request' })
    await expect(ca.send(b.id, 'no slash', bytes('x'))).rejects.toMatchObject({ code: 'bad-request' })
    await expect(ca.request(b.id, '/unhandled/1', bytes('x'), 1_000)).rejects.toMatchObject({
      code: 'unreachable',
    })
    await handleNever(cb, '/slow/1')
    await expect(ca.request(b.id, '/slow/1', bytes('x'), 200)).rejects.toMatchObject({ code: 'timeout' })
  })

  it('passes a failing handler’s error to the requester', async () => {
    const [a, b] = [await fakePeer(), await fakePeer()]
    const [ca, cb] = [await bridgeFor(a), await bridgeFor(b)]
    await cb.handle('/fails/1', () => {
      throw new Error('no such task')
    })
    await expect(ca.request(b.id, '/fails/1', bytes('x'), 5_000)).rejects.toMatchObject({
      code: 'remote-error',
      message: expect.stringContaining('no such task'),
    })
  })

  it('signs a receipt hash in the receipt domain with the host’s key and reports topology', async () => {
    const a = await fakePeer()
    const ca = await bridgeFor(a)
    const hash = new Uint8Array(32).fill(9)
    const signature = await ca.signIn('receipt', hash)
    expect(await verifyInDomain(a.key.publicKey, 'receipt', hash, signature)).toBe(true)
    expect(await a.key.publicKey.verify(hash, signature)).toBe(false)
    expect((await ca.topology()).peerId).toBe(a.id)
  })

  it('gives a worker no signature over bytes of its choosing', async () => {
    const a = await fakePeer()
    const { port1, port2 } = new MessageChannel()
    open.push({
      client: createBridgeClient(new MessageChannel().port1),
      host: serveBridge(port1, {
        node: a.node,
        topology: async () => ({
          peerId: a.id,
          addrs: [],
          relay: 'reserved',
          relays: [],
          peers: [],
          mesh: {},
        }),
        signer: domainSigner(a.key),
        onPublished: () => {},
      }),
    })
    // A worker is code we load, but a compromised one speaks the raw protocol: try every shape of ask.
    const replies: RpcReply[] = []
    port2.onmessage = (e: MessageEvent<RpcReply>) => replies.push(e.data)
    const arbitrary = new TextEncoder().encode('any message at all, say a registration digest')
    const asks = [
      { id: 1, method: 'sign', params: { data: arbitrary } },
      { id: 2, method: 'sign', params: { domain: 'arbitrary', payload: arbitrary } },
      { id: 3, method: 'sign', params: { domain: 'receipt', payload: arbitrary } },
      { id: 4, method: 'sign', params: { domain: 'toString', payload: new Uint8Array(32) } },
      { id: 5, method: 'sign' },
    ]
    for (const ask of asks) port2.postMessage(ask)
    await expect.poll(() => replies.length).toBe(asks.length)
    for (const r of replies) expect(r).toMatchObject({ error: expect.any(String), code: 'bad-request' })
    port2.close()
  })

  it('rejects the calls waiting at close and every call after it, instead of leaving them waiting', async () => {
    const a = await fakePeer()
    const ca = await bridgeFor(a)
    await handleNever(ca, '/slow/1')
    const waiting = ca.request(a.id, '/slow/1', bytes('x'), 5_000)
    ca.close()
    await expect(waiting).rejects.toMatchObject({ code: 'not-running' })
    const late = ca.publish('/tabswarm/abc/presence/1', bytes('x'))
    const tooLate = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000))
    await expect(Promise.race([late, tooLate])).rejects.toMatchObject({ code: 'not-running' })
  })

  it('refuses to publish outside the swarm topics', async () => {
    const a = await fakePeer()
    const ca = await bridgeFor(a)
    await expect(ca.publish('/other/topic', bytes('x'))).rejects.toMatchObject({ code: 'bad-request' })
    await expect(ca.publish('/tabswarm/abc/presence/1', bytes('x'))).resolves.toBe(0)
  })
})
