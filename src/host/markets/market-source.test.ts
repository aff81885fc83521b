import { describe, expect, it } from 'vitest'
import { GENSYN_TESTNET, walletNetworks } from '../chain/chains.ts'
import { DELPHI_NETWORKS } from '../delphi/networks.ts'
import { delphiNetworkFor, serviceUrlProblem } from './market-source.ts'

const BASE = 'http://127.0.0.1:5173/'
const networks = walletNetworks(null)

describe('delphiNetworkFor', () => {
  it('is the network defaults when nothing is overridden', () => {
    const n = delphiNetworkFor('mainnet', { restUrls: {}, subgraphUrls: {} }, networks, {}, BASE)
    expect(n).toEqual(DELPHI_NETWORKS.mainnet)
  })

  it('takes the chain’s RPC from the wallet overrides and the services from the Delphi settings', () => {
    const n = delphiNetworkFor(
      'competition-testnet',
      {
        restUrls: { 'competition-testnet': ' http://127.0.0.1:9/rest/ ', testnet: 'http://other' },
        subgraphUrls: { 'competition-testnet': 'http://127.0.0.1:9/subgraph' },
      },
      networks,
      { [GENSYN_TESTNET.id]: 'http://127.0.0.1:8545' },
      BASE,
    )
    expect(n).toMatchObject({
      name: 'competition-testnet',
      chainId: GENSYN_TESTNET.id,
      rpcUrl: 'http://127.0.0.1:8545',
      restUrl: 'http://127.0.0.1:9/rest',
      subgraphUrl: 'http://127.0.0.1:9/subgraph',
      mode: 'competition',
      gateways: DELPHI_NETWORKS['competition-testnet'].gateways,
    })
  })

  it('ignores blank overrides', () => {
    const n = delphiNetworkFor(
      'testnet',
      { restUrls: { testnet: '  ' }, subgraphUrls: {} },
      networks,
      {},
      BASE,
    )
    expect(n.restUrl).toBe(DELPHI_NETWORKS.testnet.restUrl)
  })
})

describe('serviceUrlProblem', () => {
  it('accepts http(s) URLs and blank (the default)', () => {
    expect(serviceUrlProblem('')).toBeNull()
    expect(serviceUrlProblem('https://delphi-api.gensyn.ai')).toBeNull()
    expect(serviceUrlProblem('http://127.0.0.1:19761/rest')).toBeNull()
  })

  it('says what is wrong with anything else', () => {
    expect(serviceUrlProblem('ws://host')).toBe('A service URL starts with http:// or https://, not ws://')
    expect(serviceUrlProblem('delphi api')).toBe('"delphi api" is not a URL: use e.g. https://host/path')
  })
})
