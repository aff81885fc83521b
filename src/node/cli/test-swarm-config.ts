// The swarm config the app server's tests serve: any valid one will do.
import type { SwarmConfig } from '../../core/config/swarm-config.ts'

export const TEST_SWARM_CONFIG: SwarmConfig = {
  version: 1,
  name: 'test',
  genesisTime: 1_700_000_000_000,
  roundLengthMs: 30_000,
  relays: ['/ip4/127.0.0.1/tcp/9090/ws/p2p/12D3KooWtest'],
  iceServers: [],
}
