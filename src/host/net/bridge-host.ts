// The main-thread side of the bridge: serves a worker's requests (publish, subscribe, send, request,
// sign, handle, topology) with the libp2p node and forwards validated gossip and inbound streams to it.
// Workers never hold the peer key or a socket; this is their only door.
import { peerIdFromString } from '@libp2p/peer-id'
import { lpStream } from '@libp2p/utils'
import type { Stream } from '@libp2p/interface'
import type {
  BridgeErrorCode,
  BridgeEvent,
  BridgeMethods,
  Topology,
} from '../../peer/peer/bridge-protocol.ts'
import { serveRpc, type RpcHandlers, type RpcScope } from '../../peer/rpc/worker-rpc.ts'
import type { BrowserNode } from './create-browser-node.ts'
import { MAX_STREAM_MESSAGE_BYTES } from './constants.ts'
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../peer/peer/bridge-client.ts'
import { isSigningDomain, type DomainSigner } from '../../core/identity/signing-domains.ts'

/** First byte of a frame on a bridge protocol stream. */
const FRAME_SEND = 0
const FRAME_REQUEST = 1
/** First byte of an answer: the handler's bytes follow, or a UTF-8 error message. */
const REPLY_OK = 0
const REPLY_ERROR = 1

interface Answer {
  data: Uint8Array
  error?: string
}

export interface BridgeHostContext {
  node: BrowserNode
  topology: () => Promise<Topology>
  /** signs in a signing domain with the peer key, which never leaves the main thread */
  signer: DomainSigner
  /** counts outbound gossip for the stats */
  onPublished: (recipients: string[], bytes: number) => void
}

export interface BridgeHost {
  /** hands a validated gossip message to the worker when it subscribed to the topic */
  deliver(event: Extract<BridgeEvent, { event: 'message' }>): void
  /** events waiting to be posted (the "queue depth" of the stats view) */
  queueDepth(): number
  close(): void
}

class HostError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export function serveBridge(port: MessagePort, ctx: BridgeHostContext): BridgeHost {
  const { node } = ctx
  const topics = new Set<string>()
  const handled = new Set<string>()
  const pendingResponses = new Map<number, (answer: Answer) => void>()
  let nextRequestId = 1
  let queue: BridgeEvent[] = []
  let flushScheduled = false
  let closed = false

  // Nothing goes out on a closed port: a late answer or event has nobody to reach.
  const scope: RpcScope<BridgeMethods> = {
    get onmessage() {
      return port.onmessage as RpcScope<BridgeMethods>['onmessage']
    },
    set onmessage(listener) {
      port.onmessage = listener as MessagePort['onmessage']
    },
    postMessage: (message, transfer) => {
      if (!closed) port.postMessage(message, transfer)
    },
  }

  // Events are posted in batches on a macrotask so a burst of gossip costs one wake-up per batch.
  const post = (event: BridgeEvent): void => {
    queue.push(event)
    if (flushScheduled) return
    flushScheduled = true
    setTimeout(() => {
      flushScheduled = false
      const batch = queue
      queue = []
      for (const e of batch) server.notify(e)
    }, 0)
  }

  const peerOf = (id: string) => {
    try {
      return peerIdFromString(id)
    } catch {
      throw new HostError('bad-request', `not a peer id: ${id}`)
    }
  }
  const checkProtocol = (p: string): void => {
    if (!/^\/[\x21-\x7e]{1,200}$/.test(p)) throw new HostError('bad-request', `bad protocol id: ${p}`)
  }
  const openStream = async (peer: string, protocol: string, timeoutMs: number): Promise<Stream> => {
    checkProtocol(protocol)
    try {
      return await node.dialProtocol(peerOf(peer), protocol, { signal: AbortSignal.timeout(timeoutMs) })
    } catch (err) {
      if (err instanceof HostError) throw err
      throw new HostError('unreachable', `could not reach ${peer} on ${protocol}: ${(err as Error).message}`)
    }
  }
  const frame = (kind: number, data: Uint8Array): Uint8Array => {
    if (data.byteLength > MAX_STREAM_MESSAGE_BYTES)
      throw new HostError(
        'too-large',
        `${data.byteLength} bytes is over the ${MAX_STREAM_MESSAGE_BYTES}-byte limit`,
      )
    const out = new Uint8Array(data.byteLength + 1)
    out[0] = kind
    out.set(data, 1)
    return out
  }

  const serveInbound = async (protocol: string, stream: Stream, from: string): Promise<void> => {
    const lp = lpStream(stream, { maxDataLength: MAX_STREAM_MESSAGE_BYTES + 1 })
    const msg = (await lp.read({ signal: AbortSignal.timeout(30_000) })).subarray()
    const data = msg.subarray(1)
    if (msg[0] === FRAME_SEND) {
      post({ event: 'stream', protocol, from, data })
      await stream.close()
      return
    }
    const requestId = nextRequestId++
    const answer = new Promise<Answer>((resolve) => pendingResponses.set(requestId, resolve))
    post({ event: 'request', requestId, protocol, from, data })
    // A worker that never answers must not pin the stream and the pending entry forever.
    const timer = setTimeout(
      () => pendingResponses.get(requestId)?.({ data: new Uint8Array(), error: 'no answer from its worker' }),
      DEFAULT_REQUEST_TIMEOUT_MS,
    )
    try {
      const a = await answer
      await lp.write(
        a.error === undefined
          ? frame(REPLY_OK, a.data)
          : frame(REPLY_ERROR, new TextEncoder().encode(a.error)),
      )
    } finally {
      clearTimeout(timer)
      pendingResponses.delete(requestId)
    }
    await stream.close()
  }

  const handlers: RpcHandlers<BridgeMethods> = {
    topology: () => ctx.topology(),
    async publish({ topic, data }) {
      if (!topics.has(topic) && !topic.startsWith('/tabswarm/'))
        throw new HostError('bad-request', `not a swarm topic: ${topic}`)
      const r = await node.services.pubsub.publish(topic, data)
      const recipients = r.recipients.map(String)
      ctx.onPublished(recipients, data.byteLength)
      return recipients.length
    },
    subscribe({ topic }) {
      topics.add(topic)
      node.services.pubsub.subscribe(topic)
      return undefined
    },
    unsubscribe({ topic }) {
      topics.delete(topic)
      node.services.pubsub.unsubscribe(topic)
      return undefined
    },
    async send({ peer, protocol, data }) {
      const stream = await openStream(peer, protocol, 10_000)
      try {
        await lpStream(stream).write(frame(FRAME_SEND, data))
        await stream.close()
      } catch (err) {
        stream.abort(err as Error)
        throw new HostError('write-failed', `write to ${peer} failed: ${(err as Error).message}`)
      }
      return { sentBytes: data.byteLength }
    },
    async request({ peer, protocol, data, timeoutMs }) {
      const stream = await openStream(peer, protocol, timeoutMs)
      const lp = lpStream(stream, { maxDataLength: MAX_STREAM_MESSAGE_BYTES + 1 })
      try {
        await lp.write(frame(FRAME_REQUEST, data))
        const reply = (await lp.read({ signal: AbortSignal.timeout(timeoutMs) })).subarray()
        await stream.close()
        if (reply[0] === REPLY_OK) return reply.subarray(1)
        const reason = new TextDecoder().decode(reply.subarray(1))
        throw new HostError('remote-error', `${peer} could not answer on ${protocol}: ${reason}`)
      } catch (err) {
        if (err instanceof HostError) throw err
        stream.abort(err as Error)
        const e = err as Error
        if (e.name === 'TimeoutError' || e.name === 'AbortError')
          throw new HostError('timeout', `no answer from ${peer} within ${timeoutMs} ms`)
        throw new HostError('write-failed', `request to ${peer} failed: ${e.message}`)
      }
    },
    async sign(params) {
      // The worker names a domain and a payload of its size; the tag is added here, so no ask yields a
      // signature over bytes the worker chose (a compromised worker may send any shape: check it all).
      const { domain, payload } = (params ?? {}) as Partial<typeof params>
      if (!isSigningDomain(domain) || !(payload instanceof Uint8Array))
        throw new HostError('bad-request', 'sign takes a signing domain and a payload')
      try {
        return await ctx.signer.signIn(domain, payload)
      } catch (err) {
        if (err instanceof RangeError) throw new HostError('bad-request', err.message)
        throw err
      }
    },
    async handle({ protocol }) {
      checkProtocol(protocol)
      if (handled.has(protocol)) return undefined
      handled.add(protocol)
      await node.handle(protocol, (stream, connection) => {
        serveInbound(protocol, stream, connection.remotePeer.toString()).catch((err: Error) =>
          stream.abort(err),
        )
      })
      return undefined
    },
    respond({ requestId, data, error }) {
      pendingResponses.get(requestId)?.({ data, error })
      pendingResponses.delete(requestId)
      return undefined
    },
  }
  const server = serveRpc<BridgeMethods, BridgeEvent>(scope, handlers)
  port.start()

  return {
    deliver(event) {
      if (topics.has(event.topic)) post(event)
    },
    queueDepth: () => queue.length,
    close() {
      closed = true
      for (const p of handled) void node.unhandle(p).catch(() => {})
      port.close()
    },
  }
}
