// The local chain's deployment as the stack records it and serves it at /deployment.json: which chain,
// where to reach it, and the addresses of the tabswarm contracts on it. The app reads it at start.
import { getAddress, isAddress } from 'viem'
import type { Address } from 'viem'

/** The 6-decimal collateral token with its rate-limited faucet (contracts/src/CollateralToken.sol). */
export interface CollateralDeployment {
  address: Address
  symbol: string
  decimals: number
}

/** Delphi-compatible market contracts: a factory + gateway pair per pricing rule. */
export interface MarketsDeployment {
  dpmFactory: Address
  dpmGateway: Address
  lmsrFactory: Address
  lmsrGateway: Address
}

export interface ChainDeployment {
  chainId: number
  /** JSON-RPC endpoint; relative URLs (the app server's `/rpc` proxy) resolve against the page */
  rpcUrl: string
  coordinator: Address
  deployedAtBlock: number
  collateral?: CollateralDeployment
  markets?: MarketsDeployment
}

export class DeploymentFormatError extends Error {
  override name = 'DeploymentFormatError'
}

function address(value: unknown, field: string): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false }))
    throw new DeploymentFormatError(`deployment: ${field} must be an address, not ${JSON.stringify(value)}`)
  return getAddress(value)
}

function record(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new DeploymentFormatError(`deployment: ${field} must be an object`)
  return value as Record<string, unknown>
}

function wholeNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new DeploymentFormatError(
      `deployment: ${field} must be a whole number, not ${JSON.stringify(value)}`,
    )
  return value
}

/** Checks a /deployment.json document; the error names the first bad field. */
export function parseDeployment(json: unknown): ChainDeployment {
  const d = record(json, 'the document')
  if (typeof d.rpcUrl !== 'string' || d.rpcUrl === '')
    throw new DeploymentFormatError('deployment: rpcUrl must be a non-empty string')
  const deployment: ChainDeployment = {
    chainId: wholeNumber(d.chainId, 'chainId'),
    rpcUrl: d.rpcUrl,
    coordinator: address(d.coordinator, 'coordinator'),
    deployedAtBlock: wholeNumber(d.deployedAtBlock, 'deployedAtBlock'),
  }
  if (d.collateral !== undefined) {
    const c = record(d.collateral, 'collateral')
    if (typeof c.symbol !== 'string' || c.symbol === '')
      throw new DeploymentFormatError('deployment: collateral.symbol must be a non-empty string')
    deployment.collateral = {
      address: address(c.address, 'collateral.address'),
      symbol: c.symbol,
      decimals: wholeNumber(c.decimals, 'collateral.decimals'),
    }
  }
  if (d.markets !== undefined) {
    const m = record(d.markets, 'markets')
    deployment.markets = {
      dpmFactory: address(m.dpmFactory, 'markets.dpmFactory'),
      dpmGateway: address(m.dpmGateway, 'markets.dpmGateway'),
      lmsrFactory: address(m.lmsrFactory, 'markets.lmsrFactory'),
      lmsrGateway: address(m.lmsrGateway, 'markets.lmsrGateway'),
    }
  }
  return deployment
}
