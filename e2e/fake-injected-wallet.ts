// A stand-in for MetaMask in the specs: an EIP-1193 provider at window.ethereum that answers for one
// of anvil's unlocked accounts, starts on chain 1, does not know the local chain until
// wallet_addEthereumChain (4902 before that, like MetaMask), and forwards the rest to the app's /rpc
// (anvil signs eth_sendTransaction for its own accounts). It records what the app asked for.
import type { Page } from '@playwright/test'
import type { Address } from 'viem'

export interface FakeWalletLog {
  methods: string[]
  added: { chainId: string; chainName: string; rpcUrls: string[] }[]
}

export async function installFakeInjectedWallet(page: Page, address: Address): Promise<void> {
  await page.addInitScript((account: string) => {
    type Listener = (data: unknown) => void
    const listeners = new Map<string, Set<Listener>>()
    const emit = (event: string, data: unknown) => listeners.get(event)?.forEach((f) => f(data))
    const log = { methods: [] as string[], added: [] as unknown[] }
    ;(window as unknown as { __fakeWallet: typeof log }).__fakeWallet = log
    const known = new Set(['0x1'])
    let chainId = '0x1'
    const fail = (code: number, message: string) => Object.assign(new Error(message), { code })
    const rpc = async (method: string, params: unknown) => {
      const res = await fetch('/rpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
      const body = (await res.json()) as {
        result?: unknown
        error?: { code: number; message: string; data?: unknown }
      }
      if (body.error)
        throw Object.assign(fail(body.error.code, body.error.message), { data: body.error.data })
      return body.result
    }
    ;(window as unknown as { ethereum: unknown }).ethereum = {
      isMetaMask: true,
      on(event: string, f: Listener) {
        if (!listeners.has(event)) listeners.set(event, new Set())
        listeners.get(event)!.add(f)
      },
      removeListener(event: string, f: Listener) {
        listeners.get(event)?.delete(f)
      },
      async request({ method, params }: { method: string; params?: unknown[] }) {
        log.methods.push(method)
        switch (method) {
          case 'eth_requestAccounts':
          case 'eth_accounts':
            return [account]
          case 'eth_chainId':
            return chainId
          case 'wallet_requestPermissions':
          case 'wallet_revokePermissions':
            throw fail(-32601, `${method} is not supported`)
          case 'wallet_switchEthereumChain': {
            const id = (params![0] as { chainId: string }).chainId
            if (!known.has(id)) throw fail(4902, `Unrecognized chain ID "${id}". Try adding the chain first.`)
            chainId = id
            emit('chainChanged', id)
            return null
          }
          case 'wallet_addEthereumChain': {
            const chain = params![0] as { chainId: string }
            log.added.push(chain)
            known.add(chain.chainId)
            chainId = chain.chainId
            emit('chainChanged', chainId)
            return null
          }
          default:
            if (chainId !== '0x7a69')
              throw fail(4901, `the fake wallet only reaches the local chain, not ${chainId}`)
            return rpc(method, params)
        }
      },
    }
  }, address)
}

export const fakeWalletLog = (page: Page): Promise<FakeWalletLog> =>
  page.evaluate(() => (window as unknown as { __fakeWallet: FakeWalletLog }).__fakeWallet)
