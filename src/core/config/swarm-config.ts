// The swarm config: a small JSON document whose hash is the swarm id. Everything a tab needs to join a
// swarm is in it; the relay keeps no swarm state.
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import * as z from 'zod'
import { canonicalJson } from '../protocol/canonical-json.ts'
import { firstIssue, intIn, stringOf } from '../protocol/schema.ts'
import { parseLearningConfig, type LearningConfig } from '../learning/learning-config.ts'
import { taskFamilyExists } from '../protocol/task-ref.ts'

export interface IceServer {
  urls: string | string[]
  username?: string
  credential?: string
}

export interface SwarmConfig {
  /** config format version */
  version: 1
  name: string
  /** ms since the Unix epoch when round 0 starts */
  genesisTime: number
  roundLengthMs: number
  /** relay multiaddrs (bootnodes), e.g. /ip4/127.0.0.1/tcp/9090/ws/p2p/12D3… */
  relays: string[]
  /** empty for loopback/LAN; STUN/TURN servers for the internet */
  iceServers: IceServer[]
  /** what the swarm learns and how (task mix, G, SAPO, sampling, GRPO); absent: DEFAULT_LEARNING */
  learning?: LearningConfig
}

export class SwarmConfigError extends Error {
  override name = 'SwarmConfigError'
}

const configError = (what: string) => `invalid swarm config: ${what}`
const relaysError = configError('relays must be a list of multiaddr strings')
const urlsError = configError('each ICE server needs urls (a string or a list of strings)')

/**
 * swarm.json. The learning section is checked by parseLearningConfig (src/core/learning/learning-config.ts),
 * which also fills defaults and needs this peer's task families, so the schema only says it is an
 * object.
 */
export const SWARM_CONFIG_SCHEMA = z.object(
  {
    version: z.literal(1, {
      error: (issue) => configError(`unsupported version ${JSON.stringify(issue.input)} (expected 1)`),
    }),
    name: stringOf(1, 64, configError('name must be 1–64 characters')),
    genesisTime: intIn(0, Number.MAX_SAFE_INTEGER, configError('genesisTime must be ms since epoch')),
    roundLengthMs: intIn(
      1000,
      Number.MAX_SAFE_INTEGER,
      configError('roundLengthMs must be an integer ≥ 1000'),
    ),
    relays: z.array(z.string({ error: relaysError }).check(z.regex(/^\//, { error: relaysError })), {
      error: relaysError,
    }),
    iceServers: z.array(
      // loose: a server is kept as written (username, credential, what browsers add): the swarm id covers it
      z.looseObject(
        { urls: z.union([z.string(), z.array(z.string())], { error: urlsError }) },
        { error: configError('each ICE server must be an object') },
      ),
      { error: configError('iceServers must be a list') },
    ),
    learning: z.optional(
      z
        .record(z.string(), z.unknown(), { error: configError('learning: not an object') })
        .check(
          z.describe(
            'what the swarm learns and how: task families, difficulty, G, SAPO, sampling and GRPO settings (src/core/learning/learning-config.ts). Checked at runtime only, by parseLearningConfig, which also needs the task families this peer can generate',
          ),
        ),
    ),
  },
  { error: configError('not a JSON object') },
)

/** Checks an untrusted JSON value and returns it as a SwarmConfig, or throws a SwarmConfigError saying what is wrong. */
export function parseSwarmConfig(value: unknown): SwarmConfig {
  const checked = SWARM_CONFIG_SCHEMA.safeParse(value)
  if (!checked.success) throw new SwarmConfigError(firstIssue(checked.error).message)
  const { learning, ...config } = checked.data
  if (learning === undefined) return config as SwarmConfig
  try {
    return { ...(config as SwarmConfig), learning: parseLearningConfig(learning, taskFamilyExists) }
  } catch (err) {
    throw new SwarmConfigError(configError((err as Error).message))
  }
}

/** The swarm id: hex SHA-256 of the config's canonical JSON (RFC 8785), so equal configs give equal ids. */
export function swarmIdOf(config: SwarmConfig): string {
  return bytesToHex(sha256(new TextEncoder().encode(canonicalJson(config))))
}
