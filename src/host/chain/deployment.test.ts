import { describe, expect, it } from 'vitest'
import { DeploymentFormatError, parseDeployment } from './deployment.ts'

const COORDINATOR = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const TOKEN = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const base = { chainId: 31337, rpcUrl: '/rpc', coordinator: COORDINATOR, deployedAtBlock: 1 }

describe('parseDeployment', () => {
  it('accepts a deployment with and without collateral and markets, checksumming addresses', () => {
    expect(parseDeployment(base)).toEqual(base)
    const full = {
      ...base,
      coordinator: COORDINATOR.toLowerCase(),
      collateral: { address: TOKEN, symbol: 'tUSD', decimals: 6 },
      markets: { dpmFactory: TOKEN, dpmGateway: TOKEN, lmsrFactory: TOKEN, lmsrGateway: TOKEN },
    }
    expect(parseDeployment(full)).toEqual({ ...full, coordinator: COORDINATOR })
  })

  it.each([
    [null, 'the document must be an object'],
    [{ ...base, rpcUrl: '' }, 'rpcUrl must be a non-empty string'],
    [{ ...base, chainId: -1 }, 'chainId must be a whole number'],
    [{ ...base, coordinator: '0x12' }, 'coordinator must be an address'],
    [{ ...base, collateral: { address: TOKEN, symbol: '', decimals: 6 } }, 'collateral.symbol'],
    [{ ...base, collateral: { address: TOKEN, symbol: 'x', decimals: 1.5 } }, 'collateral.decimals'],
    [{ ...base, markets: { dpmFactory: TOKEN } }, 'markets.dpmGateway must be an address'],
  ])('names the bad field of %j', (doc, message) => {
    expect(() => parseDeployment(doc)).toThrow(DeploymentFormatError)
    expect(() => parseDeployment(doc)).toThrow(message)
  })
})
