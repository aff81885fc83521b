import { useMemo } from 'react'
import { mergePeerRows, relayIdsOf, type PeerRow } from './peer-rows.ts'
import { useNetStore, useSettingsStore, useSwarmStore } from './stores.ts'

export interface PeerView {
  selfId: string | null
  rows: PeerRow[]
  relayIds: ReadonlySet<string>
}

/** The swarm's peers as rows (relays and this peer left out), recomputed when any source changes. */
export function usePeerRows(): PeerView {
  const topology = useNetStore((s) => s.topology)
  const perPeer = useNetStore((s) => s.stats.perPeer)
  const presence = useSwarmStore((s) => s.peers)
  const self = useSwarmStore((s) => s.self)
  const config = useSettingsStore((s) => s.config)
  const selfId = self?.peerId ?? topology?.peerId ?? null
  const relayIds = useMemo(() => relayIdsOf(config?.relays ?? [], topology), [config, topology])
  const rows = useMemo(
    () => mergePeerRows({ selfId, topology, presence, perPeer, relayIds }),
    [selfId, topology, presence, perPeer, relayIds],
  )
  return { selfId, rows, relayIds }
}
