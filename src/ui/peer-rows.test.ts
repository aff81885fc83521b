import { describe, expect, it } from 'vitest'
import type { Topology, TopologyPeer } from '../peer/peer/bridge-protocol.ts'
import type { PeerCounters } from '../host/stores/net-store.ts'
import type { PresencePeer } from '../core/protocol/presence.ts'
import { circuitHopOf, connectionLabel, mergePeerRows, relayIdsOf } from './peer-rows.ts'

const SELF = '12D3KooWself'
const RELAY = '12D3KooWrelay'

const netPeer = (id: string, over: Partial<TopologyPeer> = {}): TopologyPeer => ({
  id,
  addrs: [],
  connection: 'direct',
  transport: 'webrtc',
  inbound: false,
  rttMs: 12,
  score: 1,
  ...over,
})

const presence = (peerId: string, name: string, lastSeen: number): PresencePeer => ({
  peerId,
  name,
  appVersion: '0.1.0',
  capabilities: { webgpu: null, cores: 8, memoryGb: null },
  firstSeen: lastSeen - 1000,
  lastSeen,
  presenceCount: 3,
})

const counters = (lastSeen: number): PeerCounters => ({
  messagesIn: 5,
  messagesOut: 4,
  bytesIn: 500,
  bytesOut: 400,
  rejected: 1,
  lastSeen,
})

const topology = (peers: TopologyPeer[], relays: string[] = []): Topology => ({
  peerId: SELF,
  addrs: [],
  relay: 'reserved',
  relays,
  peers,
  mesh: {},
})

describe('mergePeerRows', () => {
  it('gives one row per peer id across topology and presence, without self or relays', () => {
    const rows = mergePeerRows({
      selfId: SELF,
      topology: topology([
        netPeer('B', { transport: 'websockets' }),
        netPeer('C', {
          connection: 'relayed',
          transport: 'circuit',
          addrs: [`/ip4/1.2.3.4/tcp/9090/ws/p2p/${RELAY}/p2p-circuit/p2p/C`],
        }),
        netPeer(RELAY, { transport: 'websockets' }),
      ]),
      presence: {
        B: presence('B', 'brisk otter', 2000),
        D: presence('D', 'amber fox', 3000),
        [SELF]: presence(SELF, 'me', 1),
      },
      perPeer: { B: counters(5000), C: counters(100) },
      relayIds: new Set([RELAY]),
    })
    expect(rows.map((r) => r.id)).toEqual(['D', 'B', 'C'])
    const [d, b, c] = rows
    expect(d).toMatchObject({
      name: 'amber fox',
      connection: 'none',
      connectionLabel: 'gossip only',
      rttMs: null,
      score: null,
    })
    expect(d!.counters).toBeNull()
    expect(b).toMatchObject({
      name: 'brisk otter',
      connection: 'direct',
      connectionLabel: 'direct WebSockets',
      lastSeen: 5000,
    })
    expect(c).toMatchObject({ name: null, connection: 'relayed', connectionLabel: 'relayed', lastSeen: 100 })
  })

  it('renders from empty state', () => {
    expect(
      mergePeerRows({ selfId: null, topology: null, presence: {}, perPeer: {}, relayIds: new Set() }),
    ).toEqual([])
  })

  it('takes the later of presence and traffic for last seen', () => {
    const [row] = mergePeerRows({
      selfId: SELF,
      topology: topology([netPeer('B')]),
      presence: { B: presence('B', 'b', 9000) },
      perPeer: { B: counters(4000) },
      relayIds: new Set(),
    })
    expect(row!.lastSeen).toBe(9000)
  })
})

describe('relays and labels', () => {
  it('finds relay ids from the node, the config and circuit addresses', () => {
    const t = topology(
      [
        netPeer('C', {
          connection: 'relayed',
          addrs: ['/dns4/r.example/tcp/443/wss/p2p/HOP/p2p-circuit/p2p/C'],
        }),
      ],
      ['NODE_RELAY'],
    )
    expect([...relayIdsOf(['/ip4/127.0.0.1/tcp/9090/ws/p2p/CONFIG_RELAY'], t)].sort()).toEqual([
      'CONFIG_RELAY',
      'HOP',
      'NODE_RELAY',
    ])
    expect(circuitHopOf('/ip4/1.2.3.4/tcp/1/ws/p2p/X')).toBeNull()
  })
  it('names connection types', () => {
    expect(connectionLabel('direct', 'webrtc')).toBe('direct WebRTC')
    expect(connectionLabel('direct', 'websockets')).toBe('direct WebSockets')
    expect(connectionLabel('direct', 'other')).toBe('direct')
    expect(connectionLabel('relayed', 'circuit')).toBe('relayed')
    expect(connectionLabel('none', '')).toBe('gossip only')
  })
})
