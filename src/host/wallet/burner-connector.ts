// The in-tab burner wallet as a wagmi connector: a local viem account (its key from IndexedDB, shared
// by the profile's tabs) that signs in the page and sends raw transactions to the chain's RPC. It has
// no window of its own, so the app asks for confirmation where needed (confirm-policy.ts).
import { ChainNotConfiguredError, ConnectorNotConnectedError, createConnector } from '@wagmi/core'
import {
  createWalletClient,
  http,
  SwitchChainError,
  type Address,
  type Chain,
  type EIP1193RequestFn,
  type LocalAccount,
} from 'viem'

export const BURNER_CONNECTOR_ID = 'burner'

export interface BurnerParameters {
  /** the profile's burner account (loads or makes the key) */
  account(): Promise<LocalAccount>
  /** polling interval of the wallet client per chain id, ms */
  pollingInterval?: (chainId: number) => number
}

export interface BurnerProvider {
  request: EIP1193RequestFn
}

export function burner(parameters: BurnerParameters) {
  let connected = false
  let chainId: number | undefined

  return createConnector<BurnerProvider>((config) => {
    const chainOf = (id: number): Chain => {
      const chain = config.chains.find((c) => c.id === id)
      if (!chain) throw new ChainNotConfiguredError()
      return chain
    }
    const clientFor = async (id: number) => {
      const chain = chainOf(id)
      const transport = config.transports?.[id] ?? http(chain.rpcUrls.default.http[0])
      return createWalletClient({
        account: await parameters.account(),
        chain,
        transport,
        pollingInterval: parameters.pollingInterval?.(id),
      })
    }
    const current = () => chainId ?? config.chains[0].id

    return {
      id: BURNER_CONNECTOR_ID,
      name: 'Burner wallet (this browser)',
      type: BURNER_CONNECTOR_ID,
      async connect({ chainId: wanted } = {}) {
        const account = await parameters.account()
        if (wanted !== undefined) chainOf(wanted)
        chainId = wanted ?? current()
        connected = true
        // wagmi's type ties the accounts' shape to `withCapabilities`; the burner has none to offer.
        return { accounts: [account.address], chainId } as never
      },
      async disconnect() {
        connected = false
      },
      async getAccounts(): Promise<readonly Address[]> {
        if (!connected) throw new ConnectorNotConnectedError()
        return [(await parameters.account()).address]
      },
      async getChainId() {
        return current()
      },
      async getClient({ chainId: id } = {}) {
        return clientFor(id ?? current())
      },
      async getProvider({ chainId: id } = {}) {
        const client = await clientFor(id ?? current())
        const request = (async (args: { method: string; params?: unknown }) => {
          if (args.method === 'eth_accounts' || args.method === 'eth_requestAccounts')
            return connected ? [client.account.address] : []
          if (args.method === 'eth_chainId') return `0x${client.chain.id.toString(16)}`
          return client.request(args as never)
        }) as EIP1193RequestFn
        return { request }
      },
      async isAuthorized() {
        return connected
      },
      async switchChain({ chainId: id }) {
        let chain: Chain
        try {
          chain = chainOf(id)
        } catch (err) {
          throw new SwitchChainError(err as Error)
        }
        chainId = id
        config.emitter.emit('change', { chainId: id })
        return chain
      },
      onAccountsChanged(accounts) {
        if (accounts.length === 0) this.onDisconnect()
        else config.emitter.emit('change', { accounts: accounts as Address[] })
      },
      onChainChanged(chain) {
        config.emitter.emit('change', { chainId: Number(chain) })
      },
      onDisconnect() {
        connected = false
        config.emitter.emit('disconnect')
      },
    }
  })
}
