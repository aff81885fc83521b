// Picks the backend for `--network`: `local` (the default) is the stack's chain with our contracts;
// testnet, mainnet and competition-testnet are Delphi’s networks (REST API + gateways + subgraph), with
// --rpc, --rest and --subgraph replacing the network's URLs and the API key from --api-key or
// DELPHI_API_KEY.
import {
  DELPHI_NETWORK_NAMES,
  delphiNetwork,
  isDelphiNetworkName,
  type DelphiNetwork,
} from '../../../host/delphi/networks.ts'
import type { MarketBackend } from './backend.ts'
import { CommandError } from './command-error.ts'
import { API_KEY_ENV, connectDelphiBackend } from './delphi-backend.ts'
import { resolveEndpoint } from './endpoint.ts'
import { connectLocalBackend } from './local-backend.ts'
import { accountFromEnv } from './signer.ts'

export const NETWORKS = ['local', ...DELPHI_NETWORK_NAMES] as const

/** Flags that only mean something on the local chain (its deployment document and addresses). */
const LOCAL_ONLY_FLAGS = [
  'deployment',
  'collateral',
  'dpm-factory',
  'dpm-gateway',
  'lmsr-factory',
  'lmsr-gateway',
]
const DELPHI_ONLY_FLAGS = ['api-key', 'rest', 'subgraph']

function checkUrl(flags: Record<string, string>, name: string): string | undefined {
  const value = flags[name]
  if (value === undefined) return undefined
  if (!/^https?:\/\/[^/]/i.test(value))
    throw new CommandError('usage', `--${name} must be an http(s) URL, not “${value}”.`)
  return value
}

/**
 * @param overrides for a Delphi network, fields replacing its defaults besides the flags' (a test's
 *   local stand-ins, gateway pins of a config)
 */
export async function connectBackend(
  flags: Record<string, string>,
  env: Record<string, string | undefined>,
  overrides: Partial<Omit<DelphiNetwork, 'name'>> = {},
): Promise<MarketBackend> {
  const network = flags.network ?? 'local'
  const account = accountFromEnv(env)
  if (network === 'local') {
    const misplaced = DELPHI_ONLY_FLAGS.find((f) => flags[f] !== undefined)
    if (misplaced)
      throw new CommandError(
        'usage',
        `--${misplaced} is for Delphi’s networks (--network testnet|mainnet|competition-testnet).`,
      )
    return connectLocalBackend({ endpoint: await resolveEndpoint(flags, env), account })
  }
  if (!isDelphiNetworkName(network))
    throw new CommandError('usage', `--network must be one of ${NETWORKS.join(', ')}, not “${network}”.`)
  const misplaced = LOCAL_ONLY_FLAGS.find((f) => flags[f] !== undefined)
  if (misplaced)
    throw new CommandError(
      'usage',
      `--${misplaced} is for the local chain; Delphi’s ${network} has its own contracts.`,
    )
  const urls = {
    rpcUrl: checkUrl(flags, 'rpc'),
    restUrl: checkUrl(flags, 'rest'),
    subgraphUrl: checkUrl(flags, 'subgraph'),
  }
  const given = Object.fromEntries(Object.entries(urls).filter(([, v]) => v !== undefined))
  return connectDelphiBackend({
    network: delphiNetwork(network, { ...overrides, ...given }),
    apiKey: flags['api-key']?.trim() || env[API_KEY_ENV]?.trim() || null,
    account,
  })
}
