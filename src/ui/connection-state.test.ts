import { describe, expect, it } from 'vitest'
import { connectionState, type ConnectionInput } from './connection-state.ts'
import { parseRoute } from './hash-route.ts'

const base: ConnectionInput = {
  status: 'online',
  relay: 'reserved',
  error: null,
  participation: 'active',
  peerCount: 2,
}

describe('connectionState', () => {
  it('reports the most urgent state first', () => {
    expect(connectionState(base)).toBe('connected')
    expect(connectionState({ ...base, peerCount: 0 })).toBe('alone')
    expect(connectionState({ ...base, relay: 'connecting', peerCount: 0 })).toBe('connecting')
    expect(connectionState({ ...base, relay: 'unreachable' })).toBe('unreachable')
    expect(connectionState({ ...base, relay: 'unreachable', participation: 'paused' })).toBe('paused')
    expect(connectionState({ ...base, status: 'stopped', participation: 'left' })).toBe('left')
    expect(connectionState({ ...base, participation: 'left', error: 'boom' })).toBe('error')
  })
  it('starts as connecting with the stores’ initial state', () => {
    expect(
      connectionState({
        status: 'starting',
        relay: 'connecting',
        error: null,
        participation: 'active',
        peerCount: 0,
      }),
    ).toBe('connecting')
  })
})

describe('parseRoute', () => {
  const known = ['swarm', 'settings']
  it('reads #/<id> and falls back for anything else', () => {
    expect(parseRoute('#/settings', known, 'swarm')).toBe('settings')
    expect(parseRoute('#/settings/x?y', known, 'swarm')).toBe('settings')
    expect(parseRoute('#settings', known, 'swarm')).toBe('settings')
    expect(parseRoute('', known, 'swarm')).toBe('swarm')
    expect(parseRoute('#/nope', known, 'swarm')).toBe('swarm')
  })
})
