import { connect, disconnect, getConnection, getConnectorClient, switchChain } from '@wagmi/core'
import type { Chain } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { BURNER_CONNECTOR_ID } from './burner-connector.ts'
import { GENSYN_TESTNET_ID, LOCAL_CHAIN_ID, walletNetworks } from '../chain/chains.ts'
import { createWalletConfig, LOCAL_POLLING_MS, REMOTE_POLLING_MS } from './wallet-config.ts'

const account = privateKeyToAccount(generatePrivateKey())
const networks = walletNetworks({
  chainId: LOCAL_CHAIN_ID,
  rpcUrl: '/rpc',
  coordinator: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  deployedAtBlock: 1,
})

function make() {
  return createWalletConfig({
    networks,
    rpcOverrides: { [GENSYN_TESTNET_ID]: 'https://override.example/rpc' },
    base: 'http://127.0.0.1:5173/',
    burnerAccount: async () => account,
  })
}

describe('wallet config', () => {
  it('has the three networks with their RPC URLs and polls the local chain fast', () => {
    const wc = make()
    expect(wc.config.chains.map((c) => c.id)).toEqual(networks.map((n) => n.id))
    expect(wc.rpcUrl(LOCAL_CHAIN_ID)).toBe('http://127.0.0.1:5173/rpc')
    expect(wc.rpcUrl(GENSYN_TESTNET_ID)).toBe('https://override.example/rpc')
    expect(wc.pollingInterval(LOCAL_CHAIN_ID)).toBe(LOCAL_POLLING_MS)
    expect(LOCAL_POLLING_MS).toBeLessThanOrEqual(500)
    expect(wc.pollingInterval(GENSYN_TESTNET_ID)).toBe(REMOTE_POLLING_MS)
    expect(wc.config.connectors.map((c) => c.type)).toEqual([BURNER_CONNECTOR_ID, 'injected'])
  })

  it('connects the burner, signs with its local account, switches networks and disconnects', async () => {
    const { config } = make()
    const burner = config.connectors.find((c) => c.id === BURNER_CONNECTOR_ID)!
    await connect(config, { connector: burner, chainId: LOCAL_CHAIN_ID })
    const conn = getConnection(config)
    expect(conn.status).toBe('connected')
    expect(conn.address).toBe(account.address)
    expect(conn.chainId).toBe(LOCAL_CHAIN_ID)

    const client = await getConnectorClient(config, { chainId: LOCAL_CHAIN_ID })
    expect(client.account.type).toBe('local')
    expect(client.account.address).toBe(account.address)
    expect((client as unknown as { chain: Chain }).chain.rpcUrls.default.http).toEqual([
      'http://127.0.0.1:5173/rpc',
    ])

    await switchChain(config, { chainId: GENSYN_TESTNET_ID })
    expect(getConnection(config).chainId).toBe(GENSYN_TESTNET_ID)
    const testnet = (await getConnectorClient(config, { chainId: GENSYN_TESTNET_ID })) as unknown as {
      chain: Chain
    }
    expect(testnet.chain.id).toBe(GENSYN_TESTNET_ID)
    await expect(switchChain(config, { chainId: 1 })).rejects.toThrow()

    await disconnect(config)
    expect(getConnection(config).status).toBe('disconnected')
  })
})
