// The swarm config: a small JSON document whose hash is the swarm id. Everything a tab needs to join a
// swarm is in it; the relay keeps no swarm state.
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { canonicalJson } from '../codec/canonical-json.ts'
import { parseLearningConfig, type LearningConfig } from '../swarm/learning-config.ts'
import { taskFamilyExists } from '../swarm/task-ref.ts'

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

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Checks an untrusted JSON value and returns it as a SwarmConfig, or throws a SwarmConfigError saying what is wrong. */
export function parseSwarmConfig(value: unknown): SwarmConfig {
  const fail = (what: string): never => {
    throw new SwarmConfigError(`invalid swarm config: ${what}`)
  }
  if (!isObject(value)) return fail('not a JSON object')
  const { version, name, genesisTime, roundLengthMs, relays, iceServers, learning } = value
  if (version !== 1) fail(`unsupported version ${JSON.stringify(version)} (expected 1)`)
  if (typeof name !== 'string' || name.length === 0 || name.length > 64) fail('name must be 1–64 characters')
  if (!Number.isSafeInteger(genesisTime) || (genesisTime as number) < 0)
    fail('genesisTime must be ms since epoch')
  if (!Number.isSafeInteger(roundLengthMs) || (roundLengthMs as number) < 1000)
    fail('roundLengthMs must be an integer ≥ 1000')
  if (!Array.isArray(relays) || relays.some((r) => typeof r !== 'string' || !r.startsWith('/')))
    fail('relays must be a list of multiaddr strings')
  if (!Array.isArray(iceServers)) return fail('iceServers must be a list')
  for (const s of iceServers) {
    if (!isObject(s)) fail('each ICE server must be an object')
    const urls = (s as Record<string, unknown>).urls
    const ok = typeof urls === 'string' || (Array.isArray(urls) && urls.every((u) => typeof u === 'string'))
    if (!ok) fail('each ICE server needs urls (a string or a list of strings)')
  }
  const config: SwarmConfig = {
    version: 1,
    name: name as string,
    genesisTime: genesisTime as number,
    roundLengthMs: roundLengthMs as number,
    relays: relays as string[],
    iceServers: iceServers as IceServer[],
  }
  if (learning === undefined) return config
  try {
    return { ...config, learning: parseLearningConfig(learning, taskFamilyExists) }
  } catch (err) {
    return fail((err as Error).message)
  }
}

/** The swarm id: hex SHA-256 of the config's canonical JSON (RFC 8785), so equal configs give equal ids. */
export function swarmIdOf(config: SwarmConfig): string {
  return bytesToHex(sha256(new TextEncoder().encode(canonicalJson(config))))
}

/** The round number at `now` (ms), −1 before genesis. */
export function roundAt(config: SwarmConfig, now: number): number {
  if (now < config.genesisTime) return -1
  return Math.floor((now - config.genesisTime) / config.roundLengthMs)
}
