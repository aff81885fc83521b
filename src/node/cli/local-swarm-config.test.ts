import { describe, expect, it } from 'vitest'
import { SwarmConfigError } from '../../core/config/swarm-config.ts'
import { localSwarmConfig } from './local-swarm-config.ts'

const relay = '/ip4/127.0.0.1/tcp/9090/ws/p2p/12D3KooWtest'

describe('localSwarmConfig', () => {
  it('starts genesis on the minute and uses the local defaults', () => {
    expect(localSwarmConfig([relay], {}, Date.UTC(2026, 0, 1, 12, 34, 56, 789))).toEqual({
      version: 1,
      name: 'tabswarm-local',
      genesisTime: Date.UTC(2026, 0, 1, 12, 34),
      roundLengthMs: 30_000,
      relays: [relay],
      iceServers: [],
    })
  })

  it('takes overrides, and validates them', () => {
    const config = localSwarmConfig([relay], { name: 'lab', genesisTime: 5, roundLengthMs: 60_000 })
    expect(config).toMatchObject({ name: 'lab', genesisTime: 5, roundLengthMs: 60_000, relays: [relay] })
    expect(() => localSwarmConfig([relay], { roundLengthMs: 10 })).toThrow(SwarmConfigError)
  })
})
