import { describe, expect, it } from 'vitest'
import { isVouched, type DialVouchers } from './dial-vouch.ts'

const RELAY = '12D3KooWRelayRelay'
const PEER = '12D3KooWPeerPeer'
const relayAddr = `/ip4/127.0.0.1/tcp/9090/ws/p2p/${RELAY}`
const vouchers = (connected: boolean): DialVouchers => ({
  relayAddrs: [relayAddr],
  connectedToRelay: (id) => connected && id === RELAY,
})

describe('isVouched', () => {
  it('allows the configured relay and WebSockets peers on its host', () => {
    expect(isVouched(relayAddr, vouchers(false))).toBe(true)
    expect(isVouched(`/ip4/127.0.0.1/tcp/19999/ws/p2p/${PEER}`, vouchers(false))).toBe(true)
  })

  it('refuses direct addresses on any other host, LAN or public, by IP or by name', () => {
    for (const addr of [
      `/ip4/192.168.1.1/tcp/80/ws/p2p/${PEER}`,
      '/ip4/10.0.0.8/tcp/8545/ws',
      '/ip6/::1/tcp/9090/ws',
      `/dns4/router.lan/tcp/443/wss/p2p/${PEER}`,
      '/ip4/8.8.8.8/tcp/443/tls/ws',
    ])
      expect(isVouched(addr, vouchers(true)), addr).toBe(false)
  })

  it('allows a circuit (and WebRTC over it) only through a relay the tab is connected to', () => {
    const circuit = `${relayAddr}/p2p-circuit/webrtc/p2p/${PEER}`
    expect(isVouched(circuit, vouchers(true))).toBe(true)
    expect(isVouched(circuit, vouchers(false))).toBe(false)
    expect(
      isVouched(`/ip4/192.168.1.1/tcp/80/ws/p2p/12D3KooWOther/p2p-circuit/p2p/${PEER}`, vouchers(true)),
    ).toBe(false)
    expect(isVouched(`${relayAddr}/p2p-circuit/p2p/${RELAY}/p2p-circuit/p2p/${PEER}`, vouchers(true))).toBe(
      false,
    )
  })

  it('refuses WebRTC without a circuit, other transports and unparsable addresses', () => {
    expect(isVouched(`/ip4/127.0.0.1/udp/9090/webrtc-direct/p2p/${PEER}`, vouchers(true))).toBe(false)
    expect(isVouched(`/webrtc/p2p/${PEER}`, vouchers(true))).toBe(false)
    expect(isVouched('/ip4/127.0.0.1/tcp/9090', vouchers(true))).toBe(false)
    expect(isVouched('not a multiaddr', vouchers(true))).toBe(false)
  })
})
