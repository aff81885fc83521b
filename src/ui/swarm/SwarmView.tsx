// The Swarm view: this peer, the connection state, the topology, traffic and the peers.
import { usePeerRows } from '../use-peer-rows.ts'
import { ConnectionBanner } from './ConnectionBanner.tsx'
import { NetStatsPanel } from './NetStatsPanel.tsx'
import { PeersTable } from './PeersTable.tsx'
import { SelfCard } from './SelfCard.tsx'
import { TopologyGraph } from './TopologyGraph.tsx'

export function SwarmView() {
  const { selfId, rows, relayIds } = usePeerRows()
  return (
    <div className="view swarm-view">
      <ConnectionBanner rows={rows} />
      <div className="swarm-grid">
        <div className="swarm-side">
          <SelfCard />
          <NetStatsPanel />
        </div>
        <TopologyGraph selfId={selfId} rows={rows} relayIds={relayIds} />
      </div>
      <PeersTable rows={rows} />
    </div>
  )
}
