// Turns discovered peers into direct connections: on discovery and on a periodic sweep over the peer
// store, dials each peer we should dial (see dial-plan.ts) and are not yet directly connected to,
// with per-peer backoff after failures. libp2p itself fires `peer:discovery` once and never retries.
// Only addresses the tab's relays vouch for are considered (dial-vouch.ts); the connection gater
// refuses the rest again.
import { multiaddr } from '@multiformats/multiaddr'
import type { BrowserNode } from './create-browser-node.ts'
import { DIAL_SWEEP_MS, DIAL_TIMEOUT_MS } from './constants.ts'
import { createDialBackoff } from './dial-backoff.ts'
import { planDial } from './dial-plan.ts'
import { isVouched, relayVouchers } from './dial-vouch.ts'
import { isDirect } from './connection-kind.ts'

export interface PeerDialer {
  /** failed dials so far (for the stats view and the tests) */
  failures(): number
  stop(): void
}

export interface StartPeerDialerParameters {
  node: BrowserNode
  /** relay multiaddrs from the swarm config */
  relayAddrs: readonly string[]
  isRelay: (peerId: string) => boolean
  isBlocked: (peerId: string) => boolean
}

export function startPeerDialer({
  node,
  relayAddrs,
  isRelay,
  isBlocked,
}: StartPeerDialerParameters): PeerDialer {
  const self = node.peerId.toString()
  const inFlight = new Set<string>()
  const backoff = createDialBackoff()
  let failures = 0
  const vouchers = relayVouchers(relayAddrs, isRelay, () => node.getConnections())

  const directlyConnected = (id: string): boolean =>
    node.getConnections().some((c) => c.remotePeer.toString() === id && isDirect(c))

  // Once a direct link exists the circuit connection it was signalled over only holds a relay slot
  // (until the relay's 2-minute limit), so it is closed.
  const dropRelayed = (id: string): void => {
    for (const c of node.getConnections()) {
      if (c.remotePeer.toString() === id && !isDirect(c)) void c.close().catch(() => {})
    }
  }

  const consider = (id: string, addrs: string[]): void => {
    if (inFlight.has(id) || isRelay(id) || isBlocked(id)) return
    if (directlyConnected(id)) return dropRelayed(id)
    if (!backoff.ready(id, Date.now())) return
    const plan = planDial(
      self,
      id,
      addrs.filter((a) => isVouched(a, vouchers)),
    )
    if (!plan) return
    inFlight.add(id)
    node
      .dial(multiaddr(plan.addr), { signal: AbortSignal.timeout(DIAL_TIMEOUT_MS) })
      .then(() => {
        backoff.succeeded(id)
        dropRelayed(id)
      })
      .catch(() => {
        failures++
        backoff.failed(id, Date.now())
      })
      .finally(() => inFlight.delete(id))
  }

  const sweep = async (): Promise<void> => {
    for (const peer of await node.peerStore.all()) {
      consider(
        peer.id.toString(),
        peer.addresses.map((a) => a.multiaddr.toString()),
      )
    }
  }

  const onPeer = (
    e: CustomEvent<{ id: { toString(): string }; multiaddrs: { toString(): string }[] }>,
  ): void => consider(e.detail.id.toString(), e.detail.multiaddrs.map(String))
  node.addEventListener('peer:discovery', onPeer)
  const timer = setInterval(() => void sweep().catch(() => {}), DIAL_SWEEP_MS)

  return {
    failures: () => failures,
    stop() {
      clearInterval(timer)
      node.removeEventListener('peer:discovery', onPeer)
    },
  }
}
