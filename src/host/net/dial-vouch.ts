// Which addresses a tab may dial — pure, so the rule is tested apart from libp2p. A peer advertises its
// own addresses, and a tab that dialed whatever it heard would open connections to any host and port
// an attacker names (a LAN scanner run from every tab). So an address is dialed only when something the
// tab already trusts vouches for it:
// - a circuit address through a relay this tab is connected to now (browser-to-browser WebRTC is
//   signalled over such a circuit, so `<relay>/p2p-circuit/webrtc/p2p/<peer>` is one too);
// - a direct address (WebSockets) on the host of a relay in the swarm config: the config names the
//   relays' hosts, so the relay itself and Node peers beside it (the loopback e2e, the benches) are
//   reachable, and no other host is.
// Everything else — another relay's circuit, a LAN or public host a peer names, WebRTC without a
// circuit — is refused, by the dial plan and again by the connection gater.
import { multiaddr } from '@multiformats/multiaddr'

export interface DialVouchers {
  /** relay multiaddrs from the swarm config */
  relayAddrs: readonly string[]
  /** whether this tab has an open connection to the relay with this peer id */
  connectedToRelay: (peerId: string) => boolean
}

interface Component {
  name: string
  value?: string
}

const HOST_PROTOCOLS = new Set(['ip4', 'ip6', 'dns', 'dns4', 'dns6', 'dnsaddr'])

function components(addr: string): Component[] | null {
  try {
    return multiaddr(addr).getComponents()
  } catch {
    return null
  }
}

/** The host an address reaches first (lower-cased), or null when it names none. */
function hostOf(parts: readonly Component[]): string | null {
  const first = parts[0]
  return first && HOST_PROTOCOLS.has(first.name) && first.value ? first.value.toLowerCase() : null
}

export function isVouched(addr: string, v: DialVouchers): boolean {
  const parts = components(addr)
  if (!parts) return false
  const circuits = parts.filter((c) => c.name === 'p2p-circuit').length
  if (circuits > 1) return false
  if (circuits === 1) {
    const relayPart = parts.slice(
      0,
      parts.findIndex((c) => c.name === 'p2p-circuit'),
    )
    const relayId = relayPart.findLast((c) => c.name === 'p2p')?.value
    return relayId !== undefined && v.connectedToRelay(relayId)
  }
  if (!parts.some((c) => c.name === 'ws' || c.name === 'wss')) return false
  const host = hostOf(parts)
  if (host === null) return false
  return v.relayAddrs.some((r) => {
    const relay = components(r)
    return relay !== null && hostOf(relay) === host
  })
}

/** The vouchers of a running node: its configured relays, and those of them it has a connection to. */
export function relayVouchers(
  relayAddrs: readonly string[],
  isRelay: (peerId: string) => boolean,
  connections: () => readonly { remotePeer: { toString(): string } }[],
): DialVouchers {
  return {
    relayAddrs,
    connectedToRelay: (id) => isRelay(id) && connections().some((c) => c.remotePeer.toString() === id),
  }
}
