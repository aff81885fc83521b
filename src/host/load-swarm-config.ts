// Fetches the swarm config the page was opened with: `?swarm=<url>` or the app's default /swarm.json.
import {
  parseSwarmConfig,
  swarmIdOf,
  SwarmConfigError,
  type SwarmConfig,
} from '../core/config/swarm-config.ts'

export const DEFAULT_CONFIG_URL = '/swarm.json'

export function configUrlFrom(search: string): string {
  return new URLSearchParams(search).get('swarm') || DEFAULT_CONFIG_URL
}

export async function loadSwarmConfig(url: string): Promise<{ config: SwarmConfig; swarmId: string }> {
  let res: Response
  try {
    res = await fetch(url, { cache: 'no-store' })
  } catch (err) {
    throw new SwarmConfigError(`could not fetch the swarm config at ${url}: ${(err as Error).message}`)
  }
  if (!res.ok) throw new SwarmConfigError(`the swarm config at ${url} answered HTTP ${res.status}`)
  let json: unknown
  try {
    json = await res.json()
  } catch {
    throw new SwarmConfigError(`the swarm config at ${url} is not JSON`)
  }
  const config = parseSwarmConfig(json)
  return { config, swarmId: swarmIdOf(config) }
}
