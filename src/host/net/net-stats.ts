// Counters of what this node sent, received and refused, kept as plain numbers on the hot path and
// copied into the UI store once a second. Per-peer counters are kept for the MAX_PEER_RECORDS most
// recently heard peers only.
import { emptyStats, type NetSample, type NetStats, type PeerCounters } from '../stores/net-store.ts'
import { createRecentMap } from '../../core/protocol/recent-map.ts'
import { MAX_PEER_RECORDS, STATS_HISTORY } from './constants.ts'

export interface NetStatsCollector {
  received(peer: string, bytes: number): void
  sent(peers: readonly string[], bytes: number): void
  /** a message that failed validation, charged to the peer that handed it over; its bytes count as received from it */
  rejected(peer: string, reason: string, bytes: number): void
  /** a message refused for a reason that is not the handing peer's fault (counted by reason, not charged) */
  ignored(peer: string, reason: string, bytes: number): void
  /** the peer was hung up on and is refused for a while */
  blocked(peer: string): void
  touch(peer: string): void
  setQueueDepth(n: number): void
  /** copy of the counters plus the history with a new sample appended */
  sample(now: number): { stats: NetStats; history: NetSample[] }
}

export function createNetStats(): NetStatsCollector {
  const s = emptyStats()
  const history: NetSample[] = []
  const peers = createRecentMap<PeerCounters>(MAX_PEER_RECORDS)
  const peer = (id: string): PeerCounters => {
    let c = peers.get(id)
    if (!c) {
      c = { messagesIn: 0, messagesOut: 0, bytesIn: 0, bytesOut: 0, rejected: 0, lastSeen: Date.now() }
      peers.set(id, c)
    }
    return c
  }
  // Every refusal counts in the totals by reason, and its bytes as received from the peer that sent them.
  const refused = (id: string, reason: string, bytes: number): PeerCounters => {
    s.rejected++
    s.rejectedByReason[reason] = (s.rejectedByReason[reason] ?? 0) + 1
    s.bytesIn += bytes
    const c = peer(id)
    c.bytesIn += bytes
    return c
  }
  return {
    received(id, bytes) {
      s.messagesIn++
      s.bytesIn += bytes
      const c = peer(id)
      c.messagesIn++
      c.bytesIn += bytes
      c.lastSeen = Date.now()
    },
    // A message published to nobody was still published (messagesOut) but put no bytes on the wire.
    sent(peers, bytes) {
      s.messagesOut++
      s.bytesOut += bytes * peers.length
      for (const id of peers) {
        const c = peer(id)
        c.messagesOut++
        c.bytesOut += bytes
      }
    },
    rejected(id, reason, bytes) {
      refused(id, reason, bytes).rejected++
    },
    ignored(id, reason, bytes) {
      s.ignored++
      refused(id, reason, bytes)
    },
    blocked() {
      s.blockedPeers++
    },
    touch(id) {
      peer(id).lastSeen = Date.now()
    },
    setQueueDepth(n) {
      s.queueDepth = n
    },
    sample(now) {
      const { messagesIn, messagesOut, bytesIn, bytesOut, rejected } = s
      history.push({ t: now, messagesIn, messagesOut, bytesIn, bytesOut, rejected })
      if (history.length > STATS_HISTORY) history.shift()
      const perPeer = Object.fromEntries([...peers.entries()].map(([k, v]) => [k, { ...v }]))
      return {
        stats: { ...s, rejectedByReason: { ...s.rejectedByReason }, perPeer },
        history: [...history],
      }
    },
  }
}
