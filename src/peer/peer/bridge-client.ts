// The worker side of the bridge: a promise API over a MessagePort to the main-thread libp2p node.
// Workers use it as their only door to the network and to the peer key.
import type {
  BridgeErrorCode,
  BridgeEvent,
  BridgeMessage,
  BridgeRequest,
  Topology,
} from './bridge-protocol.ts'
import type { DomainSigner } from '../../core/identity/signing-domains.ts'

export class BridgeError extends Error {
  override name = 'BridgeError'
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export interface GossipMessage {
  topic: string
  from: string
  data: Uint8Array
  receivedAt: number
}

export type RequestHandler = (from: string, data: Uint8Array) => Uint8Array | Promise<Uint8Array>
export type StreamHandler = (from: string, data: Uint8Array) => void

type Listener<E extends BridgeEvent['event']> = (event: Extract<BridgeEvent, { event: E }>) => void

/** Distributes a request type over the union so `id` can be left out of each variant. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never

export interface BridgeClient {
  topology(): Promise<Topology>
  /** resolves with the number of peers the message was sent to */
  publish(topic: string, data: Uint8Array): Promise<number>
  subscribe(topic: string): Promise<void>
  unsubscribe(topic: string): Promise<void>
  send(peer: string, protocol: string, data: Uint8Array): Promise<{ sentBytes: number }>
  request(peer: string, protocol: string, data: Uint8Array, timeoutMs?: number): Promise<Uint8Array>
  /** signs a payload in a signing domain with the peer key (which stays on the main thread) */
  signIn: DomainSigner['signIn']
  /** registers a protocol handler: return bytes to answer requests; one-way sends reach `onSend` */
  handle(protocol: string, onRequest: RequestHandler, onSend?: StreamHandler): Promise<void>
  on<E extends BridgeEvent['event']>(event: E, listener: Listener<E>): () => void
  close(): void
}

/** Requests time out after this long unless the call says otherwise (AXL uses 30 s too). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000

export function createBridgeClient(port: MessagePort): BridgeClient {
  let nextId = 1
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  const listeners = new Map<string, Set<(e: BridgeEvent) => void>>()
  const requestHandlers = new Map<string, RequestHandler>()
  const sendHandlers = new Map<string, StreamHandler>()

  const call = <T>(req: WithoutId<BridgeRequest>, transfer: Transferable[] = []): Promise<T> => {
    const id = nextId++
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      port.postMessage({ ...req, id }, transfer)
    })
  }

  const emit = (event: BridgeEvent): void => {
    for (const l of listeners.get(event.event) ?? []) l(event)
  }

  port.onmessage = (e: MessageEvent<BridgeMessage>) => {
    const msg = e.data
    if ('id' in msg) {
      const p = pending.get(msg.id)
      if (!p) return
      pending.delete(msg.id)
      if (msg.ok) p.resolve(msg.value)
      else p.reject(new BridgeError(msg.error.code, msg.error.message))
      return
    }
    if (msg.event === 'request') {
      const handler = requestHandlers.get(msg.protocol)
      if (!handler) return
      Promise.resolve()
        .then(() => handler(msg.from, msg.data))
        .then((data) => call({ op: 'respond', requestId: msg.requestId, data }))
        .catch((err: unknown) =>
          call({
            op: 'respond',
            requestId: msg.requestId,
            data: new Uint8Array(),
            error: err instanceof Error ? err.message : String(err),
          }),
        )
      return
    }
    if (msg.event === 'stream') sendHandlers.get(msg.protocol)?.(msg.from, msg.data)
    emit(msg)
  }
  port.start()

  return {
    topology: () => call({ op: 'topology' }),
    publish: (topic, data) => call({ op: 'publish', topic, data }),
    subscribe: (topic) => call({ op: 'subscribe', topic }),
    unsubscribe: (topic) => call({ op: 'unsubscribe', topic }),
    send: (peer, protocol, data) => call({ op: 'send', peer, protocol, data }),
    request: (peer, protocol, data, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS) =>
      call({ op: 'request', peer, protocol, data, timeoutMs }),
    signIn: (domain, payload) => call({ op: 'sign', domain, payload }),
    async handle(protocol, onRequest, onSend) {
      requestHandlers.set(protocol, onRequest)
      if (onSend) sendHandlers.set(protocol, onSend)
      await call({ op: 'handle', protocol })
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      const l = listener as (e: BridgeEvent) => void
      set.add(l)
      return () => set.delete(l)
    },
    close() {
      for (const p of pending.values()) p.reject(new BridgeError('not-running', 'bridge closed'))
      pending.clear()
      port.close()
    },
  }
}
