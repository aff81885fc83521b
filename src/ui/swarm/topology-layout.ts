// Where the topology graph draws each node: this peer in the centre, peers on a circle around it,
// relays on a small inner arc above the centre so their dashed links fan out to the relayed peers.
import type { RelayState } from '../../peer/peer/bridge-protocol.ts'
import { circuitHopOf, type ConnectionKind, type PeerRow } from '../peer-rows.ts'
import { shortId } from '../../host/format.ts'

export interface GraphNode {
  id: string
  kind: 'self' | 'peer' | 'relay'
  label: string
  /** the label in one or two lines: long names put their last word (the animal) on a second line */
  lines: string[]
  x: number
  y: number
  /** peers: their connection; relays: whether this tab has a connection to them */
  connection: ConnectionKind
  /** label placement around the node */
  anchor: 'start' | 'middle' | 'end'
  labelX: number
  labelY: number
}

export interface GraphEdge {
  from: string
  to: string
  /** direct: solid; relayed: dashed via a relay; relay-link: this tab to a relay */
  kind: 'direct' | 'relayed' | 'relay-link'
  /** relay links only: the link's health */
  state?: 'up' | 'down' | 'pending'
}

export interface TopologyLayout {
  width: number
  height: number
  /** the peers' circle */
  radius: number
  nodes: GraphNode[]
  edges: GraphEdge[]
}

export interface LayoutInput {
  selfId: string | null
  selfName: string | null
  rows: readonly PeerRow[]
  relayIds: ReadonlySet<string>
  /** relay ids this tab has an open connection to */
  connectedRelays: ReadonlySet<string>
  relayState: RelayState
  width?: number
  height?: number
}

const SELF = '__self__'
const LINE_HEIGHT = 14

/** "agile tawny otter" → ["agile tawny", "otter"] when longer than `max` characters. */
export function labelLines(label: string, max = 18): string[] {
  const cut = label.lastIndexOf(' ')
  return label.length > max && cut > 0 ? [label.slice(0, cut), label.slice(cut + 1)] : [label]
}

export function layoutTopology({
  selfId,
  selfName,
  rows,
  relayIds,
  connectedRelays,
  relayState,
  width = 700,
  height = 540,
}: LayoutInput): TopologyLayout {
  const cx = width / 2
  const cy = height / 2
  const radius = Math.min(width, height) / 2 - 80
  const selfNodeId = selfId ?? SELF
  const nodes: GraphNode[] = [
    {
      id: selfNodeId,
      kind: 'self',
      label: selfName ?? (selfId ? shortId(selfId) : 'this tab'),
      lines: [selfName ?? (selfId ? shortId(selfId) : 'this tab')],
      x: cx,
      y: cy,
      connection: 'direct',
      anchor: 'middle',
      labelX: cx,
      labelY: cy + 34,
    },
  ]
  const edges: GraphEdge[] = []

  const relays = [...relayIds].sort()
  const spread = 0.55
  relays.forEach((id, k) => {
    const angle = -Math.PI / 2 + (k - (relays.length - 1) / 2) * spread
    const r = radius * 0.5
    const x = cx + r * Math.cos(angle)
    const y = cy + r * Math.sin(angle)
    const up = connectedRelays.has(id)
    nodes.push({
      id,
      kind: 'relay',
      label: relays.length > 1 ? `relay ${shortId(id)}` : 'relay',
      lines: [relays.length > 1 ? `relay ${shortId(id)}` : 'relay'],
      x,
      y,
      connection: up ? 'direct' : 'none',
      anchor: 'end',
      labelX: x - 18,
      labelY: y + 4,
    })
    edges.push({
      from: selfNodeId,
      to: id,
      kind: 'relay-link',
      state: up ? 'up' : relayState === 'unreachable' ? 'down' : 'pending',
    })
  })

  const n = rows.length
  // start half a step past the top so no peer sits right behind the relay
  const offset = -Math.PI / 2 + (n > 1 ? Math.PI / n : 0)
  rows.forEach((row, i) => {
    const angle = offset + (i * 2 * Math.PI) / Math.max(n, 1)
    const cos = Math.cos(angle)
    const sin = Math.sin(angle)
    const x = cx + radius * cos
    const y = cy + radius * sin
    const anchor = Math.abs(cos) < 0.3 ? 'middle' : cos > 0 ? 'start' : 'end'
    const labelGap = 16
    const label = row.name ?? shortId(row.id)
    const lines = labelLines(label)
    const extra = (lines.length - 1) * LINE_HEIGHT
    nodes.push({
      id: row.id,
      kind: 'peer',
      label,
      lines,
      x,
      y,
      connection: row.connection,
      anchor,
      labelX: x + (anchor === 'middle' ? 0 : cos > 0 ? labelGap : -labelGap),
      // baseline of the first line: below or above the node, or centred beside it
      labelY: y + (anchor === 'middle' ? (sin > 0 ? 26 : -16 - extra) : 4 - extra / 2),
    })
    if (row.connection === 'direct') edges.push({ from: selfNodeId, to: row.id, kind: 'direct' })
    else if (row.connection === 'relayed') {
      const hop = row.addrs.map(circuitHopOf).find((h) => h !== null && relayIds.has(h)) ?? relays[0]
      edges.push({ from: hop ?? selfNodeId, to: row.id, kind: 'relayed' })
    }
  })

  return { width, height, radius, nodes, edges }
}
