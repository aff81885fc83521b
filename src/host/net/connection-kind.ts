// Classifies a libp2p connection for the UI and the dialer: direct (WebRTC or WebSockets to the peer
// itself) or relayed (a limited /p2p-circuit connection through the relay).
import type { Connection } from '@libp2p/interface'

type Conn = Pick<Connection, 'remoteAddr' | 'limits'>

export function transportOf(
  c: Pick<Connection, 'remoteAddr'>,
): 'webrtc' | 'websockets' | 'circuit' | 'other' {
  const a = c.remoteAddr.toString()
  if (/\/webrtc(\/|$)/.test(a)) return 'webrtc'
  if (a.includes('/p2p-circuit')) return 'circuit'
  if (/\/(ws|wss)(\/|$)/.test(a)) return 'websockets'
  return 'other'
}

/** A WebRTC connection is direct even though the dialer's address names the relay it signalled over. */
export function isDirect(c: Conn): boolean {
  return c.limits == null && transportOf(c) !== 'circuit'
}

/**
 * The address of the path the data takes. libp2p gives a WebRTC connection the address it was dialed
 * on, `<relay>/p2p-circuit/webrtc/p2p/<peer>`, on the dialing side and `/webrtc/p2p/<peer>` on the
 * answering side; the circuit part is only the signalling route, so both sides report the latter.
 */
export function dataPathAddr(c: Pick<Connection, 'remoteAddr'>): string {
  const a = c.remoteAddr.toString()
  if (transportOf(c) !== 'webrtc') return a
  return a.slice(a.search(/\/webrtc(\/|$)/))
}
