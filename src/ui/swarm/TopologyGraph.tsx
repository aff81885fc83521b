// The swarm as this tab sees it: inline SVG, this peer in the centre.
import { useMemo } from 'react'
import { Card } from '../common/Card.tsx'
import type { PeerRow } from '../peer-rows.ts'
import { layoutTopology, type GraphNode } from './topology-layout.ts'
import { useNetStore, useSwarmStore } from '../stores.ts'

function Node({ node }: { node: GraphNode }) {
  const cls = `node node-${node.kind} conn-${node.connection}`
  return (
    <g className={cls} data-node-id={node.id} data-node-kind={node.kind}>
      <title>{`${node.label}\n${node.id}`}</title>
      {node.kind === 'relay' ? (
        <rect
          x={node.x - 11}
          y={node.y - 11}
          width={22}
          height={22}
          rx={4}
          transform={`rotate(45 ${node.x} ${node.y})`}
        />
      ) : (
        <circle cx={node.x} cy={node.y} r={node.kind === 'self' ? 18 : 10} />
      )}
      <text className="node-label" x={node.labelX} y={node.labelY} textAnchor={node.anchor}>
        {node.lines.map((line, i) => (
          <tspan key={i} x={node.labelX} dy={i === 0 ? 0 : 14}>
            {line}
          </tspan>
        ))}
      </text>
    </g>
  )
}

export function TopologyGraph({
  selfId,
  rows,
  relayIds,
}: {
  selfId: string | null
  rows: readonly PeerRow[]
  relayIds: ReadonlySet<string>
}) {
  const topology = useNetStore((s) => s.topology)
  const relayState = useNetStore((s) => s.relay)
  const selfName = useSwarmStore((s) => s.self?.name ?? null)

  const layout = useMemo(() => {
    const linked = relayState === 'connected' || relayState === 'reserved'
    const connectedRelays = new Set(
      linked
        ? [
            ...(topology?.relays ?? []),
            ...(topology?.peers ?? [])
              .filter((p) => relayIds.has(p.id) && p.connection !== 'none')
              .map((p) => p.id),
          ]
        : [],
    )
    return layoutTopology({ selfId, selfName, rows, relayIds, connectedRelays, relayState })
  }, [topology, relayState, selfId, selfName, rows, relayIds])

  const pos = new Map(layout.nodes.map((n) => [n.id, n]))

  return (
    <Card title="Topology" className="topology-card">
      <svg
        className="topology"
        data-testid="topology-graph"
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="img"
        aria-label={`This peer and ${rows.length} ${rows.length === 1 ? 'peer' : 'peers'}`}
      >
        <circle className="orbit" cx={layout.width / 2} cy={layout.height / 2} r={layout.radius} />
        <g className="edges">
          {layout.edges.map((e) => {
            const a = pos.get(e.from)
            const b = pos.get(e.to)
            if (!a || !b) return null
            return (
              <line
                key={`${e.from}-${e.to}`}
                className={`edge edge-${e.kind} ${e.state ? `edge-${e.state}` : ''}`}
                data-edge={e.kind}
                x1={a.x}
                y1={a.y}
                x2={b.x}
                y2={b.y}
              />
            )
          })}
        </g>
        <g className="nodes">
          {layout.nodes.map((n) => (
            <Node key={n.id} node={n} />
          ))}
        </g>
        {rows.length === 0 && (
          <text className="graph-empty" x={layout.width / 2} y={layout.height - 16} textAnchor="middle">
            no peers yet
          </text>
        )}
      </svg>
      <ul className="legend">
        <li>
          <span className="legend-line direct" /> direct
        </li>
        <li>
          <span className="legend-line relayed" /> relayed
        </li>
        <li>
          <span className="legend-node gossip" /> gossip only
        </li>
        <li>
          <span className="legend-node relay" /> relay
        </li>
      </ul>
    </Card>
  )
}
