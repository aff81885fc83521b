// The worker side of the bridge: a promise API over a MessagePort to the main-thread libp2p node, on the
// worker RPC with the roles reversed (the worker calls, the page serves and sends the network's events
// as notices). Workers use it as their only door to the network and to the peer key.
import type { BridgeErrorCode, BridgeEvent, BridgeMethods, Topology } from './bridge-protocol.ts'
import type { DomainSigner } from '../../core/identity/signing-domains.ts'
import { overPort, workerRpc } from '../rpc/worker-rpc.ts'

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

const BRIDGE_ERROR_CODES: ReadonlySet<string> = new Set<BridgeErrorCode>([
  'bad-request',
  'unreachable',
  'write-failed',
  'timeout',
  'not-running',
  'too-large',
  'remote-error',
])
/** a failure the host gave no code of ours is the host not running what was asked */
const bridgeCode = (code: string | undefined): BridgeErrorCode =>
  code !== undefined && BRIDGE_ERROR_CODES.has(code) ? (code as BridgeErrorCode) : 'not-running'

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
  const listeners = new Map<string, Set<(e: BridgeEvent) => void>>()
  const requestHandlers = new Map<string, RequestHandler>()
  const sendHandlers = new Map<string, StreamHandler>()
  let closed = false

  const emit = (event: BridgeEvent): void => {
    for (const l of listeners.get(event.event) ?? []) l(event)
  }

  const answer = (msg: Extract<BridgeEvent, { event: 'request' }>, handler: RequestHandler): void => {
    const respond = (data: Uint8Array, error?: string) =>
      rpc.call('respond', { requestId: msg.requestId, data, ...(error === undefined ? {} : { error }) })
    Promise.resolve()
      .then(() => handler(msg.from, msg.data))
      .then(
        (data) => respond(data),
        (err: unknown) => respond(new Uint8Array(), err instanceof Error ? err.message : String(err)),
      )
      .catch(() => {}) // the bridge closed before the answer went out: nobody is left to tell
  }

  const onNotice = (msg: BridgeEvent): void => {
    if (msg.event === 'request') {
      const handler = requestHandlers.get(msg.protocol)
      if (handler) answer(msg, handler)
      return
    }
    if (msg.event === 'stream') sendHandlers.get(msg.protocol)?.(msg.from, msg.data)
    emit(msg)
  }

  // The port opens on the first call (it holds what the page posted until then; the page sends
  // nothing before the worker subscribes or handles) and, once closed, is not opened again.
  const rpc = workerRpc<BridgeMethods, BridgeEvent>(
    () => {
      if (closed) throw new BridgeError('not-running', 'bridge closed')
      return overPort(port)
    },
    {
      errorOf: (_method, message, code) => new BridgeError(bridgeCode(code), message),
      crashed: (message) => new BridgeError('not-running', message),
      onNotice,
    },
  )
  return {
    topology: () => rpc.call('topology', undefined),
    publish: (topic, data) => rpc.call('publish', { topic, data }),
    subscribe: async (topic) => void (await rpc.call('subscribe', { topic })),
    unsubscribe: async (topic) => void (await rpc.call('unsubscribe', { topic })),
    send: (peer, protocol, data) => rpc.call('send', { peer, protocol, data }),
    request: (peer, protocol, data, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS) =>
      rpc.call('request', { peer, protocol, data, timeoutMs }),
    signIn: (domain, payload) => rpc.call('sign', { domain, payload }),
    async handle(protocol, onRequest, onSend) {
      requestHandlers.set(protocol, onRequest)
      if (onSend) sendHandlers.set(protocol, onSend)
      await rpc.call('handle', { protocol })
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      const l = listener as (e: BridgeEvent) => void
      set.add(l)
      return () => set.delete(l)
    },
    close() {
      closed = true
      rpc.stop(new BridgeError('not-running', 'bridge closed'))
    },
  }
}
