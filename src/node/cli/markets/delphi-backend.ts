// The MarketBackend of Delphi's networks (testnet, mainnet, competition-testnet): Delphi's directory
// (REST API + gateway routing + subgraph, src/host/delphi/delphi-directory.ts) over the same chain
// backend as the local chain (chain-backend.ts), so quotes are the exact local maths on the state read
// on-chain, checked against the gateway's own quote, and trades go through the routed gateway. Delphi's
// service failures become command errors an agent can branch on.
import type { Account } from 'viem'
import { delphiDirectory } from '../../../host/delphi/delphi-directory.ts'
import {
  DelphiApiKeyError,
  DelphiOfflineError,
  DelphiResponseError,
  DelphiUnknownMarketError,
} from '../../../host/delphi/errors.ts'
import type { DelphiNetwork } from '../../../host/delphi/networks.ts'
import type { MarketDirectory } from '../../../core/markets/market-directory.ts'
import type { MarketBackend } from './backend.ts'
import { connectChainBackend } from './chain-backend.ts'
import { CommandError } from './command-error.ts'

/** Where the key comes from, for the sentences that ask for it. */
export const API_KEY_ENV = 'DELPHI_API_KEY'
const KEY_HINT = `pass --api-key or set ${API_KEY_ENV}`

export interface DelphiBackendOptions {
  network: DelphiNetwork
  apiKey: string | null
  account?: Account
  fetcher?: typeof fetch
}

function commandError(err: unknown): unknown {
  if (err instanceof DelphiApiKeyError) return new CommandError('bad-api-key', err.message)
  if (err instanceof DelphiOfflineError) return new CommandError('unreachable', err.message)
  if (err instanceof DelphiResponseError) return new CommandError('bad-response', err.message)
  if (err instanceof DelphiUnknownMarketError) return new CommandError('unknown-market', err.message)
  return err
}

/** `directory` with each failure of Delphi's services as a CommandError. */
function worded(directory: MarketDirectory): MarketDirectory {
  const wrap =
    <A extends unknown[], T>(f: (...args: A) => Promise<T>) =>
    (...args: A) =>
      f(...args).catch((err: unknown) => {
        throw commandError(err)
      })
  const { heldBy } = directory
  return {
    list: wrap(directory.list),
    find: wrap(directory.find),
    history: wrap(directory.history),
    ...(heldBy ? { heldBy: wrap(heldBy) } : {}),
  }
}

export async function connectDelphiBackend(options: DelphiBackendOptions): Promise<MarketBackend> {
  const { network, apiKey, fetcher } = options
  if (!apiKey)
    throw new CommandError('bad-api-key', `Delphi’s ${network.name} API needs an API key: ${KEY_HINT}.`)
  return connectChainBackend({
    network: network.name,
    rpcUrl: network.rpcUrl,
    expectedChainId: network.chainId,
    wrongChain: (chainId) =>
      `Wrong network: ${network.rpcUrl} is chain ${chainId}, but Delphi’s ${network.name} is chain ${network.chainId}. Pass the right --rpc.`,
    collateral: network.token,
    faucet: network.faucet,
    account: options.account,
    directory: (client) => worded(delphiDirectory({ client, network, apiKey, fetcher, keyHint: KEY_HINT })),
    unreachableHint: 'check the connection, or pass another --rpc <url>.',
  })
}
