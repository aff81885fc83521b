// The message shapes on the MessagePort between the main-thread libp2p node (host) and the peer worker
// (client) — the role AXL's local HTTP API plays: the worker never touches the network or the peer key.
// Uint8Arrays travel by structured clone (or transfer).
import type { SigningDomain } from '../../core/identity/signing-domains.ts'
import type { RpcMethod } from '../rpc/worker-rpc.ts'

/** A peer as the network layer sees it. */
export interface TopologyPeer {
  id: string
  /** open connections' remote multiaddrs */
  addrs: string[]
  /** 'direct' when at least one non-limited, non-circuit connection is open (WebRTC or WebSockets) */
  connection: 'direct' | 'relayed' | 'none'
  /** transport of the best connection, e.g. 'webrtc', 'websockets', 'circuit' */
  transport: string
  inbound: boolean
  rttMs: number | null
  /** gossipsub score; negative means misbehaving */
  score: number
}

export interface Topology {
  peerId: string
  /** our listen / announce multiaddrs */
  addrs: string[]
  relay: RelayState
  /** peer ids of the relays this node uses; they are not listed in `peers` */
  relays: string[]
  peers: TopologyPeer[]
  /** gossipsub mesh peers per subscribed topic */
  mesh: Record<string, string[]>
}

export type RelayState = 'connecting' | 'connected' | 'reserved' | 'unreachable'

/**
 * What the worker asks of the network node (served by src/host/net/bridge-host.ts on the worker RPC,
 * src/peer/rpc/worker-rpc.ts). A failure answers with one of the error codes below.
 */
export interface BridgeMethods {
  topology: RpcMethod<undefined, Topology>
  /** answers how many peers the message was sent to */
  publish: RpcMethod<{ topic: string; data: Uint8Array }, number>
  subscribe: RpcMethod<{ topic: string }, undefined>
  unsubscribe: RpcMethod<{ topic: string }, undefined>
  send: RpcMethod<{ peer: string; protocol: string; data: Uint8Array }, { sentBytes: number }>
  request: RpcMethod<{ peer: string; protocol: string; data: Uint8Array; timeoutMs: number }, Uint8Array>
  /** a signature in one of the signing domains (src/core/identity/signing-domains.ts), never over raw bytes */
  sign: RpcMethod<{ domain: SigningDomain; payload: Uint8Array }, Uint8Array>
  handle: RpcMethod<{ protocol: string }, undefined>
  /** answer to an inbound request notice */
  respond: RpcMethod<{ requestId: number; data: Uint8Array; error?: string }, undefined>
}

export type BridgeErrorCode =
  | 'bad-request' // malformed peer id, topic, protocol (AXL's 400)
  | 'unreachable' // dial failed (AXL's 502)
  | 'write-failed' // stream write failed (AXL's 500)
  | 'timeout'
  | 'not-running'
  | 'too-large'
  | 'remote-error' // the peer's handler failed (or its worker did not answer)

/** What the network node tells the worker unasked (the RPC's notices). */
export type BridgeEvent =
  /** a gossip message that passed validation (only valid messages reach the worker) */
  | { event: 'message'; topic: string; from: string; data: Uint8Array; receivedAt: number }
  /** a one-way `send` from a peer on a protocol the worker handles */
  | { event: 'stream'; protocol: string; from: string; data: Uint8Array }
  /** a `request` from a peer; answer with `respond` and the same requestId */
  | { event: 'request'; requestId: number; protocol: string; from: string; data: Uint8Array }
