// Picks the backend for `--network`: only the local chain for now; Delphi's networks come later behind
// the same MarketBackend interface.
import type { MarketBackend } from './backend.ts'
import { CommandError } from './command-error.ts'
import { resolveEndpoint } from './endpoint.ts'
import { connectLocalBackend } from './local-backend.ts'
import { accountFromEnv } from './signer.ts'

export const NETWORKS = ['local'] as const

export async function connectBackend(
  flags: Record<string, string>,
  env: Record<string, string | undefined>,
): Promise<MarketBackend> {
  const network = flags.network ?? 'local'
  if (network !== 'local')
    throw new CommandError(
      'not-supported',
      `The network “${network}” is not supported yet: only --network local (the stack’s chain) is.`,
    )
  const account = accountFromEnv(env)
  return connectLocalBackend({ endpoint: await resolveEndpoint(flags, env), account })
}
