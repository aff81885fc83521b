// One row per peer for the dashboards: the network's view (topology, counters) joined with the swarm's
// view (presence). Relays and this peer are not peers of the swarm and are left out.
import type { Topology, TopologyPeer } from '../peer/peer/bridge-protocol.ts'
import type { PeerCounters } from '../host/stores/net-store.ts'
import type { PresencePeer } from '../core/protocol/presence.ts'

export type ConnectionKind = TopologyPeer['connection']

export interface PeerRow {
  id: string
  /** animal name from presence; null until a presence message arrived */
  name: string | null
  connection: ConnectionKind
  /** 'direct WebRTC', 'direct WebSockets', 'relayed' or 'gossip only' */
  connectionLabel: string
  rttMs: number | null
  /** gossipsub score; null when the network layer does not know the peer */
  score: number | null
  addrs: string[]
  /** ms epoch of the latest message, connection event or presence; null if never */
  lastSeen: number | null
  counters: PeerCounters | null
  presence: PresencePeer | null
}

export interface PeerRowsInput {
  selfId: string | null
  topology: Topology | null
  presence: Record<string, PresencePeer>
  perPeer: Record<string, PeerCounters>
  relayIds: ReadonlySet<string>
}

/** The union of topology peers and presence peers, sorted by name (unnamed last), then id. */
export function mergePeerRows({ selfId, topology, presence, perPeer, relayIds }: PeerRowsInput): PeerRow[] {
  const byId = new Map<string, TopologyPeer>()
  for (const p of topology?.peers ?? []) byId.set(p.id, p)
  const ids = new Set<string>([...byId.keys(), ...Object.keys(presence)])
  const rows: PeerRow[] = []
  for (const id of ids) {
    if (id === selfId || relayIds.has(id)) continue
    const net = byId.get(id)
    const pres = presence[id] ?? null
    const counters = perPeer[id] ?? null
    const connection: ConnectionKind = net?.connection ?? 'none'
    const seen = Math.max(counters?.lastSeen ?? 0, pres?.lastSeen ?? 0)
    rows.push({
      id,
      name: pres?.name ?? null,
      connection,
      connectionLabel: connectionLabel(connection, net?.transport ?? ''),
      rttMs: net?.rttMs ?? null,
      score: net ? net.score : null,
      addrs: net?.addrs ?? [],
      lastSeen: seen > 0 ? seen : null,
      counters,
      presence: pres,
    })
  }
  return rows.sort(compareRows)
}

function compareRows(a: PeerRow, b: PeerRow): number {
  if (a.name !== null && b.name === null) return -1
  if (a.name === null && b.name !== null) return 1
  if (a.name !== null && b.name !== null && a.name !== b.name) return a.name < b.name ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

const TRANSPORT_NAMES: Record<string, string> = {
  webrtc: 'WebRTC',
  'webrtc-direct': 'WebRTC',
  websockets: 'WebSockets',
  ws: 'WebSockets',
  wss: 'WebSockets',
  webtransport: 'WebTransport',
  tcp: 'TCP',
  other: '',
}

export function connectionLabel(connection: ConnectionKind, transport: string): string {
  if (connection === 'relayed') return 'relayed'
  if (connection === 'none') return 'gossip only'
  const name = TRANSPORT_NAMES[transport.toLowerCase()] ?? transport
  return name ? `direct ${name}` : 'direct'
}

/**
 * Peer ids of relays: the relays the node reports, the /p2p/<id> of each configured relay multiaddr, and
 * the hop of every circuit address (…/p2p/<relay>/p2p-circuit/…) among the open connections.
 */
export function relayIdsOf(configRelays: readonly string[], topology: Topology | null): Set<string> {
  const ids = new Set<string>(topology?.relays ?? [])
  for (const addr of configRelays) {
    const parts = addr.split('/')
    const at = parts.lastIndexOf('p2p')
    const id = at >= 0 ? parts[at + 1] : undefined
    if (id) ids.add(id)
  }
  for (const peer of topology?.peers ?? []) {
    for (const addr of peer.addrs) {
      const hop = circuitHopOf(addr)
      if (hop) ids.add(hop)
    }
  }
  return ids
}

/** The relay's peer id in a circuit address (…/p2p/<relay>/p2p-circuit/…), else null. */
export function circuitHopOf(addr: string): string | null {
  const parts = addr.split('/')
  const circuit = parts.indexOf('p2p-circuit')
  if (circuit >= 2 && parts[circuit - 2] === 'p2p') return parts[circuit - 1] || null
  return null
}
