// What the relay reports about itself on /metrics: JSON for people and dashboards, and the same numbers
// in Prometheus' text format for scrapers.
import type { RelayedTraffic } from './relayed-traffic.ts'

export interface RelayMetrics {
  peerId: string
  uptimeS: number
  /** peers with at least one open connection */
  connectedPeers: number
  /** open connections (a peer can have more than one) */
  connections: number
  /** reservations held by connected peers: how many tabs can be reached through this relay */
  reservations: number
  relayedConnections: { active: number; total: number }
  /** payload bytes forwarded over relayed connections, both directions, since start */
  relayedBytes: number
  limits: { maxReservations: number; maxReservationsPerAddress: number; maxConnections: number }
  memory: { rss: number; heapUsed: number }
}

export interface RelayMetricsSources {
  peerId: string
  startedAt: number
  connectedPeers: () => number
  connections: () => number
  reservations: () => number
  relayedTraffic: () => RelayedTraffic
  limits: RelayMetrics['limits']
}

export function readRelayMetrics(s: RelayMetricsSources): RelayMetrics {
  const { active, total, bytes } = s.relayedTraffic()
  const { rss, heapUsed } = process.memoryUsage()
  return {
    peerId: s.peerId,
    uptimeS: Math.floor((Date.now() - s.startedAt) / 1000),
    connectedPeers: s.connectedPeers(),
    connections: s.connections(),
    reservations: s.reservations(),
    relayedConnections: { active, total },
    relayedBytes: bytes,
    limits: { ...s.limits },
    memory: { rss, heapUsed },
  }
}

type PrometheusType = 'gauge' | 'counter'

/** The metrics in Prometheus text exposition format 0.0.4, names prefixed `tabswarm_relay_`. */
export function toPrometheusText(m: RelayMetrics): string {
  const lines: string[] = []
  const add = (name: string, type: PrometheusType, help: string, value: number): void => {
    const full = `tabswarm_relay_${name}`
    lines.push(`# HELP ${full} ${help}`, `# TYPE ${full} ${type}`, `${full} ${value}`)
  }
  add('uptime_seconds', 'gauge', 'Seconds since the relay started.', m.uptimeS)
  add('connected_peers', 'gauge', 'Peers with at least one open connection.', m.connectedPeers)
  add('connections', 'gauge', 'Open connections.', m.connections)
  add('reservations', 'gauge', 'Circuit relay reservations held by connected peers.', m.reservations)
  add('max_reservations', 'gauge', 'Configured reservation limit.', m.limits.maxReservations)
  add(
    'max_reservations_per_address',
    'gauge',
    'Configured reservation limit per remote (non-loopback) address.',
    m.limits.maxReservationsPerAddress,
  )
  add('max_connections', 'gauge', 'Configured connection limit.', m.limits.maxConnections)
  add('relayed_connections_active', 'gauge', 'Relayed connections now open.', m.relayedConnections.active)
  add(
    'relayed_connections_total',
    'counter',
    'Relayed connections set up since start.',
    m.relayedConnections.total,
  )
  add('relayed_bytes_total', 'counter', 'Payload bytes forwarded over relayed connections.', m.relayedBytes)
  add('memory_rss_bytes', 'gauge', 'Resident set size of the relay process.', m.memory.rss)
  add('memory_heap_used_bytes', 'gauge', 'V8 heap in use.', m.memory.heapUsed)
  return lines.join('\n') + '\n'
}
