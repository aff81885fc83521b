// When the dialer may try a peer again after a failed dial: the first retry soon (the other side may
// still be reserving its relay slot), each further failure doubling the wait up to a cap, and a
// success forgetting the peer. At most MAX_BACKOFF_PEERS peers are on record. Pure: the caller passes
// the time.
import { createRecentMap } from '../../core/protocol/recent-map.ts'
import { DIAL_BACKOFF_MAX_MS, DIAL_BACKOFF_MIN_MS, MAX_BACKOFF_PEERS } from './constants.ts'

export interface DialBackoff {
  /** whether `peer` may be dialed at `now` */
  ready(peer: string, now: number): boolean
  failed(peer: string, now: number): void
  succeeded(peer: string): void
  /** peers with a backoff on record */
  readonly size: number
}

export function createDialBackoff(): DialBackoff {
  const backoff = createRecentMap<{ until: number; delay: number }>(MAX_BACKOFF_PEERS)
  return {
    ready: (peer, now) => (backoff.get(peer)?.until ?? -Infinity) <= now,
    failed(peer, now) {
      const delay = Math.min(DIAL_BACKOFF_MAX_MS, (backoff.get(peer)?.delay ?? DIAL_BACKOFF_MIN_MS / 2) * 2)
      backoff.set(peer, { until: now + delay, delay })
    },
    succeeded(peer) {
      backoff.delete(peer)
    },
    get size() {
      return backoff.size
    },
  }
}
