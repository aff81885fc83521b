// Where the local-chain markets are: the deployment document the stack writes (a file, or the URL the
// app server publishes it at), optionally with another RPC URL; or, without any document, an RPC URL and
// the five contract addresses. A relative rpcUrl in a served document (the app's `/rpc` proxy) resolves
// against the document's URL.
import { readFile } from 'node:fs/promises'
import { getAddress, isAddress, type Address } from 'viem'
import { DeploymentFormatError, parseDeployment } from '../../../host/chain/deployment.ts'
import type { CollateralDeployment, MarketsDeployment } from '../../../host/chain/deployment.ts'
import { CommandError } from './command-error.ts'

/** `npm start` serves the app (and /deployment.json) here by default. */
export const DEFAULT_DEPLOYMENT_URL = 'http://127.0.0.1:5173/deployment.json'
export const DEPLOYMENT_ENV = 'TABSWARM_DEPLOYMENT'

export interface MarketsEndpoint {
  rpcUrl: string
  /** the chain the deployment was made on; null when given by flags (nothing to compare with) */
  chainId: number | null
  /** the collateral; symbol and decimals are read from the token when given by flags */
  collateral: Address | CollateralDeployment
  markets: MarketsDeployment
  /** the first block that can hold a market creation (the list's creation order reads from it) */
  fromBlock: bigint
  /** where the description came from, for error sentences */
  source: string
}

const ADDRESS_FLAGS = ['collateral', 'dpm-factory', 'dpm-gateway', 'lmsr-factory', 'lmsr-gateway'] as const

function flagAddress(flags: Record<string, string>, name: string): Address {
  const value = flags[name]!
  if (!isAddress(value, { strict: false }))
    throw new CommandError('usage', `--${name} must be an address (0x and 40 hex digits), not “${value}”.`)
  return getAddress(value)
}

async function readDocument(location: string, fetcher: typeof fetch): Promise<unknown> {
  if (!/^https?:\/\//i.test(location)) {
    const text = await readFile(location, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new CommandError(
        'deployment',
        `Cannot read the deployment file ${location} (${err.code ?? err.message}).`,
      )
    })
    return JSON.parse(text)
  }
  const res = await fetcher(location).catch((err: Error) => {
    throw new CommandError(
      'unreachable',
      `Cannot fetch the deployment at ${location} (${err.message}): is the stack running (npm start)? Or pass --deployment <file>.`,
    )
  })
  if (res.status === 404)
    throw new CommandError('deployment', `${location} answered 404: that app server runs no local chain.`)
  if (!res.ok) throw new CommandError('deployment', `${location} answered HTTP ${res.status}.`)
  return res.json()
}

export async function resolveEndpoint(
  flags: Record<string, string>,
  env: Record<string, string | undefined>,
  fetcher: typeof fetch = fetch,
): Promise<MarketsEndpoint> {
  const given = ADDRESS_FLAGS.filter((f) => flags[f] !== undefined)
  if (given.length > 0) {
    const missing = ADDRESS_FLAGS.filter((f) => flags[f] === undefined)
    if (missing.length > 0 || flags.rpc === undefined)
      throw new CommandError(
        'usage',
        `Without a deployment document give --rpc and all five addresses; missing: ${[...(flags.rpc ? [] : ['rpc']), ...missing].map((f) => `--${f}`).join(', ')}.`,
      )
    return {
      rpcUrl: flags.rpc,
      chainId: null,
      collateral: flagAddress(flags, 'collateral'),
      markets: {
        dpmFactory: flagAddress(flags, 'dpm-factory'),
        dpmGateway: flagAddress(flags, 'dpm-gateway'),
        lmsrFactory: flagAddress(flags, 'lmsr-factory'),
        lmsrGateway: flagAddress(flags, 'lmsr-gateway'),
      },
      fromBlock: 0n,
      source: 'the command-line addresses',
    }
  }
  const location = flags.deployment ?? env[DEPLOYMENT_ENV] ?? DEFAULT_DEPLOYMENT_URL
  let deployment
  try {
    deployment = parseDeployment(await readDocument(location, fetcher))
  } catch (err) {
    if (err instanceof CommandError) throw err
    const why = err instanceof DeploymentFormatError ? err.message : 'it is not JSON'
    throw new CommandError('deployment', `The deployment ${location} cannot be used: ${why}.`)
  }
  if (!deployment.markets || !deployment.collateral)
    throw new CommandError(
      'deployment',
      `The deployment ${location} has no markets: redeploy with npm start.`,
    )
  const base = /^https?:\/\//i.test(location) ? location : undefined
  return {
    rpcUrl: flags.rpc ?? (base ? new URL(deployment.rpcUrl, base).href : deployment.rpcUrl),
    chainId: deployment.chainId,
    collateral: deployment.collateral,
    markets: deployment.markets,
    fromBlock: BigInt(deployment.deployedAtBlock),
    source: location,
  }
}
