// The relay: a Node libp2p node that lets browser tabs reach each other. Tabs connect to it over
// WebSockets, reserve a circuit-relay slot (their /p2p-circuit address), find each other through the
// pubsub discovery topic it forwards, and then upgrade to direct WebRTC, using relayed connections only
// for signalling. It keeps no swarm state: any number of swarms can share one relay.
import { isIP } from 'node:net'
import { createLibp2p } from 'libp2p'
import { circuitRelayServer } from '@libp2p/circuit-relay-v2'
import { gossipsub } from '@libp2p/gossipsub'
import { identify } from '@libp2p/identify'
import { noise } from '@libp2p/noise'
import { ping } from '@libp2p/ping'
import { pubsubPeerDiscovery, TOPIC as DISCOVERY_TOPIC } from '@libp2p/pubsub-peer-discovery'
import { webSockets } from '@libp2p/websockets'
import { yamux } from '@libp2p/yamux'
import { dropReservationsOnDisconnect } from './drop-reservations-on-disconnect.ts'
import { PortInUseError } from './listen-http.ts'
import { loadOrCreateRelayKey } from './relay-key.ts'
import { startRelayHttp } from './relay-http.ts'
import { readRelayMetrics } from './relay-metrics.ts'
import type { RelayMetrics } from './relay-metrics.ts'
import { meterRelayedTraffic } from './relayed-traffic.ts'
import { DEFAULT_MAX_RESERVATIONS_PER_ADDRESS, refusesReservation } from './reservations-per-address.ts'
import type { ReservationView } from './reservations-per-address.ts'

export interface RelayOptions {
  /** interface to listen on; default loopback (put a TLS proxy in front for the internet) */
  host?: string
  /** WebSocket port; default 9090 */
  port?: number
  /** port of /health and /metrics; default `port + 1`, or off when `port` is 0; 0 = off */
  httpPort?: number
  /** where the relay's private key lives; created when missing. Without one the peer id changes on every start. */
  keyFile?: string
  /** circuit reservations held at once: one per tab that can be reached through this relay */
  maxReservations?: number
  /** reservations one remote (non-loopback) address may hold at once; reservations-per-address.ts */
  maxReservationsPerAddress?: number
  /** open connections before libp2p starts pruning */
  maxConnections?: number
  /** multiaddrs to advertise instead of the listen addresses, e.g. /dns4/relay.example.com/tcp/443/wss */
  announce?: string[]
}

export const RELAY_DEFAULTS = {
  host: '127.0.0.1',
  port: 9090,
  /** circuit-relay-v2's default of 15 leaves the 16th tab without a /p2p-circuit address. */
  maxReservations: 1024,
  maxReservationsPerAddress: DEFAULT_MAX_RESERVATIONS_PER_ADDRESS,
  /** Twice the reservations: tabs that only come to be discovered, and reconnects overlapping old connections. */
  maxConnections: 2048,
} as const

/**
 * New connections accepted per second from one IP address (libp2p's default is 5). Behind a TLS proxy
 * every tab arrives from the proxy's address, and on loopback every tab shares 127.0.0.1, so the per-host
 * limit is in effect a limit for the whole relay: it must absorb tabs reconnecting after a relay restart.
 */
const INBOUND_CONNECTIONS_PER_HOST_PER_SECOND = 200

/**
 * Connections still doing their noise/yamux upgrade at once (libp2p's default is 10, which refuses
 * connections in a burst of tabs joining together).
 */
const MAX_PENDING_INBOUND_CONNECTIONS = 128

export interface Relay {
  peerId: string
  /** where tabs dial the relay, each ending in /p2p/<peerId>; the announce addresses when given */
  multiaddrs: string[]
  /** base URL of /health and /metrics, when the HTTP side is on */
  httpUrl?: string
  metrics(): RelayMetrics
  /** stops HTTP and libp2p; the ports are free when it resolves */
  close(): Promise<void>
}

function webSocketListenAddr(host: string, port: number): string {
  const family = isIP(host)
  if (family === 0)
    throw new Error(`relay host must be an IP address such as 127.0.0.1 or 0.0.0.0, not "${host}"`)
  return `/ip${family}/${host}/tcp/${port}/ws`
}

export async function createRelay(options: RelayOptions = {}): Promise<Relay> {
  const host = options.host ?? RELAY_DEFAULTS.host
  const port = options.port ?? RELAY_DEFAULTS.port
  const httpPort = options.httpPort ?? (port === 0 ? 0 : port + 1)
  const maxReservations = options.maxReservations ?? RELAY_DEFAULTS.maxReservations
  const maxConnections = options.maxConnections ?? RELAY_DEFAULTS.maxConnections
  const perAddress = options.maxReservationsPerAddress ?? RELAY_DEFAULTS.maxReservationsPerAddress
  const privateKey = await loadOrCreateRelayKey(options.keyFile)

  // the gater is asked before each new reservation, once the node below exists
  const gated: { view?: ReservationView } = {}
  const node = await createLibp2p({
    privateKey,
    addresses: { listen: [webSocketListenAddr(host, port)], announce: options.announce ?? [] },
    transports: [webSockets()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    connectionGater: {
      denyInboundRelayReservation: (peer) =>
        gated.view !== undefined && refusesReservation(gated.view, peer, perAddress),
    },
    connectionManager: {
      maxConnections,
      inboundConnectionThreshold: INBOUND_CONNECTIONS_PER_HOST_PER_SECOND,
      maxIncomingPendingConnections: MAX_PENDING_INBOUND_CONNECTIONS,
    },
    // listenOnly: the relay forwards the tabs' adverts but has nothing of its own to advertise.
    peerDiscovery: [pubsubPeerDiscovery({ listenOnly: true })],
    services: {
      identify: identify(),
      ping: ping(),
      // Default relayed-connection limits kept (2 min, 128 KiB): enough for WebRTC signalling, and they
      // stop the relay from becoming the swarm's data path.
      relay: circuitRelayServer({ reservations: { maxReservations } }),
      pubsub: gossipsub({
        // Signed messages (the default StrictSign): unsigned identical adverts collide on message id.
        // Only the discovery topic: app topics' subscriptions and messages never take relay memory.
        allowedTopics: [DISCOVERY_TOPIC],
        // Every tab behind a proxy (or on loopback) shares one IP; colocation scoring would graylist them.
        scoreParams: { IPColocationFactorWeight: 0 },
      }),
    },
  }).catch((err: unknown) => {
    throw /EADDRINUSE/.test(String((err as Error)?.message)) ? new PortInUseError('relay', host, port) : err
  })

  gated.view = {
    reservations: node.services.relay.reservations,
    connectionAddrs: (peer) => node.getConnections(peer).map((c) => c.remoteAddr),
  }
  try {
    const relayedTraffic = await meterRelayedTraffic(node, node.services.relay)
    const stopDropping = dropReservationsOnDisconnect(node, node.services.relay)
    const peerId = node.peerId.toString()
    const startedAt = Date.now()
    const metrics = (): RelayMetrics =>
      readRelayMetrics({
        peerId,
        startedAt,
        connectedPeers: () => node.getPeers().length,
        connections: () => node.getConnections().length,
        reservations: () => node.services.relay.reservations.size,
        relayedTraffic,
        limits: { maxReservations, maxReservationsPerAddress: perAddress, maxConnections },
      })
    const http = httpPort === 0 ? undefined : await startRelayHttp(host, httpPort, metrics)
    return {
      peerId,
      multiaddrs: node.getMultiaddrs().map(String),
      httpUrl: http?.url,
      metrics,
      async close() {
        stopDropping()
        await http?.close()
        await node.stop()
      },
    }
  } catch (err) {
    await node.stop()
    throw err
  }
}
