import { describe, expect, it } from 'vitest'
import {
  GENSYN_MAINNET_ID,
  GENSYN_TESTNET_ID,
  LOCAL_CHAIN_ID,
  resolveRpcUrl,
  rpcUrlFor,
  rpcUrlProblem,
  toViemChain,
  walletNetworks,
} from './chains.ts'
import type { ChainDeployment } from './deployment.ts'

const PAGE = 'http://127.0.0.1:5173/#/wallet'
const LOCAL: ChainDeployment = {
  chainId: LOCAL_CHAIN_ID,
  rpcUrl: '/rpc',
  coordinator: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  deployedAtBlock: 1,
}

describe('chains', () => {
  it('resolves a relative RPC URL against the page and keeps absolute ones as written', () => {
    expect(resolveRpcUrl('/rpc', PAGE)).toBe('http://127.0.0.1:5173/rpc')
    expect(resolveRpcUrl('http://127.0.0.1:8545', PAGE)).toBe('http://127.0.0.1:8545')
    expect(resolveRpcUrl('https://rpc.example/v1/', PAGE)).toBe('https://rpc.example/v1/')
  })

  it('offers the local chain first, then Gensyn testnet and mainnet', () => {
    const networks = walletNetworks(LOCAL)
    expect(networks.map((n) => [n.id, n.name, n.local])).toEqual([
      [LOCAL_CHAIN_ID, 'Local chain', true],
      [GENSYN_TESTNET_ID, 'Gensyn Testnet', false],
      [GENSYN_MAINNET_ID, 'Gensyn Mainnet', false],
    ])
    expect(walletNetworks(null).map((n) => n.id)).toEqual([GENSYN_TESTNET_ID, GENSYN_MAINNET_ID])
  })

  it('does not list a deployment on the Gensyn testnet twice', () => {
    const networks = walletNetworks({ ...LOCAL, chainId: GENSYN_TESTNET_ID, rpcUrl: 'https://my.rpc' })
    expect(networks.map((n) => [n.id, n.defaultRpcUrl, n.local])).toEqual([
      [GENSYN_TESTNET_ID, 'https://my.rpc', false],
      [GENSYN_MAINNET_ID, 'https://gensyn-mainnet.g.alchemy.com/public', false],
    ])
  })

  it('uses a settings override for the RPC URL', () => {
    const [local, testnet] = walletNetworks(LOCAL)
    expect(rpcUrlFor(local!, {}, PAGE)).toBe('http://127.0.0.1:5173/rpc')
    expect(rpcUrlFor(testnet!, { [GENSYN_TESTNET_ID]: ' https://mine.example/rpc ' }, PAGE)).toBe(
      'https://mine.example/rpc',
    )
    expect(rpcUrlFor(testnet!, { [GENSYN_TESTNET_ID]: '  ' }, PAGE)).toBe(testnet!.defaultRpcUrl)
    expect(toViemChain(testnet!, 'https://x/rpc').rpcUrls.default.http).toEqual(['https://x/rpc'])
  })

  it('says what is wrong with a typed RPC URL', () => {
    expect(rpcUrlProblem('')).toBeNull()
    expect(rpcUrlProblem('/rpc')).toBeNull()
    expect(rpcUrlProblem('https://rpc.example')).toBeNull()
    expect(rpcUrlProblem('ws://rpc.example')).toBe('An RPC URL starts with http:// or https://, not ws://')
    expect(rpcUrlProblem('rpc example')).toBe('"rpc example" is not a URL: use e.g. https://host/rpc or /rpc')
  })
})
