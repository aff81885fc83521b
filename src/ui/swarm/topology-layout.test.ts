import { describe, expect, it } from 'vitest'
import type { PeerRow } from '../peer-rows.ts'
import { labelLines, layoutTopology } from './topology-layout.ts'

const row = (id: string, connection: PeerRow['connection'], addrs: string[] = []): PeerRow => ({
  id,
  name: `peer ${id}`,
  connection,
  connectionLabel: connection,
  rttMs: null,
  score: 0,
  addrs,
  lastSeen: null,
  counters: null,
  presence: null,
})

describe('layoutTopology', () => {
  it('puts this peer in the centre, peers on a circle, relayed peers behind their relay', () => {
    const layout = layoutTopology({
      selfId: 'S',
      selfName: 'me',
      rows: [
        row('A', 'direct'),
        row('B', 'relayed', ['/ip4/1.1.1.1/tcp/1/ws/p2p/R/p2p-circuit/p2p/B']),
        row('C', 'none'),
      ],
      relayIds: new Set(['R']),
      connectedRelays: new Set(['R']),
      relayState: 'reserved',
    })
    const self = layout.nodes.find((n) => n.kind === 'self')!
    expect([self.x, self.y]).toEqual([layout.width / 2, layout.height / 2])
    const peers = layout.nodes.filter((n) => n.kind === 'peer')
    const dist = peers.map((p) => Math.hypot(p.x - self.x, p.y - self.y))
    expect(Math.max(...dist) - Math.min(...dist)).toBeLessThan(1e-9)
    expect(layout.edges).toEqual([
      { from: 'S', to: 'R', kind: 'relay-link', state: 'up' },
      { from: 'S', to: 'A', kind: 'direct' },
      { from: 'R', to: 'B', kind: 'relayed' },
    ])
  })
  it('draws a lone peer with an unreachable relay', () => {
    const layout = layoutTopology({
      selfId: null,
      selfName: null,
      rows: [],
      relayIds: new Set(['R']),
      connectedRelays: new Set(),
      relayState: 'unreachable',
    })
    expect(layout.nodes.map((n) => n.kind)).toEqual(['self', 'relay'])
    expect(layout.edges[0]).toMatchObject({ kind: 'relay-link', state: 'down' })
  })
})

describe('labelLines', () => {
  it('puts the animal of a long name on its own line', () => {
    expect(labelLines('camouflaged carnivorous aardvark')).toEqual(['camouflaged carnivorous', 'aardvark'])
    expect(labelLines('bold otter')).toEqual(['bold otter'])
    expect(labelLines('…aBcDeF')).toEqual(['…aBcDeF'])
  })
})
