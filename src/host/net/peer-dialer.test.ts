// The dialer against a stand-in node: what it dials for a discovered peer, given the tab's relays.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { BrowserNode } from './create-browser-node.ts'
import { startPeerDialer, type PeerDialer } from './peer-dialer.ts'

const SELF = '12D3KooWAaaaSelf'
const RELAY = '12D3KooWRelayRelay'
const STRANGER = '12D3KooWZzzzStranger'
const RELAY_ADDR = `/ip4/127.0.0.1/tcp/9090/ws/p2p/${RELAY}`

type Listener = (e: CustomEvent<{ id: { toString(): string }; multiaddrs: { toString(): string }[] }>) => void

function fakeNode(connectedTo: string[]) {
  const listeners = new Set<Listener>()
  const dialed: string[] = []
  const node = {
    peerId: { toString: () => SELF },
    getConnections: () =>
      connectedTo.map((id) => ({
        remotePeer: { toString: () => id },
        remoteAddr: { toString: () => `${RELAY_ADDR}` },
        limits: undefined,
        close: async () => {},
      })),
    dial: async (addr: { toString(): string }) => {
      dialed.push(addr.toString())
      throw new Error('no such peer here')
    },
    peerStore: { all: async () => [] },
    addEventListener: (_: string, l: Listener) => listeners.add(l),
    removeEventListener: (_: string, l: Listener) => listeners.delete(l),
  } as unknown as BrowserNode
  const discover = (id: string, addrs: string[]) => {
    for (const l of listeners)
      l(new CustomEvent('peer:discovery', { detail: { id: { toString: () => id }, multiaddrs: addrs } }))
  }
  return { node, dialed, discover }
}

let dialer: PeerDialer | undefined
afterEach(() => dialer?.stop())

describe('peer dialer', () => {
  it('never dials a WebSockets LAN address that a peer advertises for itself', async () => {
    const { node, dialed, discover } = fakeNode([RELAY])
    dialer = startPeerDialer({
      node,
      relayAddrs: [RELAY_ADDR],
      isRelay: (id) => id === RELAY,
      isBlocked: () => false,
    })
    discover(STRANGER, [
      `/ip4/192.168.1.1/tcp/80/ws/p2p/${STRANGER}`,
      '/ip4/10.0.0.8/tcp/8545/ws',
      `/dns4/router.lan/tcp/443/wss/p2p/${STRANGER}`,
    ])
    await vi.waitFor(() => expect(dialer?.failures()).toBe(0))
    await new Promise((r) => setTimeout(r, 20))
    expect(dialed).toEqual([])
  })

  it('dials a browser peer over the circuit of a relay this tab is connected to, and not over another', async () => {
    const { node, dialed, discover } = fakeNode([RELAY])
    dialer = startPeerDialer({
      node,
      relayAddrs: [RELAY_ADDR],
      isRelay: (id) => id === RELAY,
      isBlocked: () => false,
    })
    const elsewhere = '/ip4/192.168.1.1/tcp/80/ws/p2p/12D3KooWOtherRelay'
    discover(STRANGER, [`${elsewhere}/p2p-circuit/webrtc/p2p/${STRANGER}`])
    discover(STRANGER, [`${RELAY_ADDR}/p2p-circuit/webrtc/p2p/${STRANGER}`])
    await vi.waitFor(() => expect(dialed).toEqual([`${RELAY_ADDR}/p2p-circuit/webrtc/p2p/${STRANGER}`]))
  })
})
