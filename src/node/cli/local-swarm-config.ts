// The swarm config `npm start` serves: one local relay, no ICE servers (loopback and LAN need none).
import { parseSwarmConfig } from '../../core/config/swarm-config.ts'
import type { SwarmConfig } from '../../core/config/swarm-config.ts'

const LOCAL_SWARM_DEFAULTS = {
  name: 'tabswarm-local',
  /** Long enough for a tab on a slow machine to generate, train and gossip within one round. */
  roundLengthMs: 30_000,
} as const

/** Genesis is rounded down to this, so round boundaries fall on whole minutes of the wall clock. */
const GENESIS_GRANULARITY_MS = 60_000

/** A validated config for `relays`; `overrides` win over the defaults (throws SwarmConfigError if invalid). */
export function localSwarmConfig(
  relays: string[],
  overrides: Partial<SwarmConfig> = {},
  now = Date.now(),
): SwarmConfig {
  return parseSwarmConfig({
    version: 1,
    name: LOCAL_SWARM_DEFAULTS.name,
    genesisTime: Math.floor(now / GENESIS_GRANULARITY_MS) * GENESIS_GRANULARITY_MS,
    roundLengthMs: LOCAL_SWARM_DEFAULTS.roundLengthMs,
    relays,
    iceServers: [],
    ...overrides,
  })
}
