import type { PeerId } from '@libp2p/interface'
import { multiaddr, type Multiaddr } from '@multiformats/multiaddr'
import { describe, expect, it } from 'vitest'
import { refusesReservation, type ReservationView } from './reservations-per-address.ts'

/** Reservations by peer name, and each peer's connection address. */
function view(held: Record<string, string>, connected: Record<string, string>): ReservationView {
  const reservations = new Map<string, { addr: Multiaddr }>(
    Object.entries(held).map(([peer, addr]) => [peer, { addr: multiaddr(addr) }]),
  )
  return {
    reservations: {
      has: (peer) => reservations.has(String(peer)),
      values: () => reservations.values(),
    },
    connectionAddrs: (peer) => (connected[String(peer)] ? [multiaddr(connected[String(peer)]!)] : []),
  }
}
const peer = (name: string) => name as unknown as PeerId

const LAN = '/ip4/192.0.2.7/tcp/50000/ws'
const OTHER = '/ip4/192.0.2.8/tcp/50000/ws'

describe('refusesReservation', () => {
  it('refuses a new peer id from an address that holds the cap, not one from another address', () => {
    const v = view({ a: LAN, b: LAN }, { c: LAN, d: OTHER })
    expect(refusesReservation(v, peer('c'), 2)).toBe(true)
    expect(refusesReservation(v, peer('c'), 3)).toBe(false)
    expect(refusesReservation(v, peer('d'), 2)).toBe(false)
  })

  it('lets a peer refresh the reservation it holds, and never caps loopback', () => {
    const v = view(
      { a: LAN, b: LAN, l1: '/ip4/127.0.0.1/tcp/1/ws', l2: '/ip6/::1/tcp/1/ws' },
      { a: LAN, l3: '/ip4/127.0.0.1/tcp/2/ws', l4: '/ip6/::1/tcp/2/ws' },
    )
    expect(refusesReservation(v, peer('a'), 2)).toBe(false)
    expect(refusesReservation(v, peer('l3'), 1)).toBe(false)
    expect(refusesReservation(v, peer('l4'), 1)).toBe(false)
  })

  it('counts IPv6 addresses like IPv4 ones', () => {
    const v = view({ a: '/ip6/2001:db8::1/tcp/1/ws' }, { b: '/ip6/2001:db8::1/tcp/2/ws' })
    expect(refusesReservation(v, peer('b'), 1)).toBe(true)
  })
})
