// A cap on the circuit reservations one remote address holds, so one host cannot take all of the
// relay's slots (circuit-relay-v2 keys reservations by peer id, and peer ids are free). Loopback is not
// capped: it is this machine (the local stack, its e2e and benches) or a TLS proxy in front of the
// relay, behind which every tab shares the proxy's address; such a proxy has to limit per client itself.
import type { PeerId } from '@libp2p/interface'
import type { Multiaddr } from '@multiformats/multiaddr'

/**
 * Reservations one non-loopback address may hold at once: a household or an office behind one NAT
 * address with this many tabs open still gets a slot for each, while 16 hosts cannot fill a relay of
 * 1,024.
 */
export const DEFAULT_MAX_RESERVATIONS_PER_ADDRESS = 64

/** The IP address in `addr`; undefined for an address without one (/dns, /p2p-circuit…). */
export function ipOf(addr: Multiaddr): string | undefined {
  return addr.getComponents().find((c) => c.name === 'ip4' || c.name === 'ip6')?.value
}

export function isLoopback(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1' || ip.startsWith('::ffff:127.')
}

/** What the cap needs to see: each reservation's remote address, and a peer's open connections. */
export interface ReservationView {
  reservations: { has(peer: PeerId): boolean; values(): Iterable<{ addr: Multiaddr }> }
  connectionAddrs(peer: PeerId): Multiaddr[]
}

/**
 * Whether a new reservation for `peer` is refused: its address already holds `cap`. A peer that
 * holds one refreshes it, which never counts as a new one.
 */
export function refusesReservation(view: ReservationView, peer: PeerId, cap: number): boolean {
  if (view.reservations.has(peer)) return false
  const ip = view
    .connectionAddrs(peer)
    .map(ipOf)
    .find((a) => a !== undefined)
  if (ip === undefined || isLoopback(ip)) return false
  let held = 0
  for (const { addr } of view.reservations.values()) if (ipOf(addr) === ip) held++
  return held >= cap
}
