// A stand-in for MetaMask in the specs: an EIP-1193 provider at window.ethereum for one account whose
// key it holds, like a real wallet. It starts on chain 1, does not know the local chain until
// wallet_addEthereumChain (4902 before that, like MetaMask), signs eth_sendTransaction itself (in Node,
// through an exposed function: viem fills in nonce, gas and fees through the app's /rpc and signs with
// the local account) and sends the signed transaction with eth_sendRawTransaction; reads go to the
// app's /rpc as they are. /rpc forwards no eth_sendTransaction: anvil's unlocked accounts are not
// open to pages. It records what the app asked for.
import type { Page } from '@playwright/test'
import { createWalletClient, hexToBigInt, http, type Hex, type LocalAccount } from 'viem'
import { localChain } from '../src/host/chain/local-clients.ts'

export interface FakeWalletLog {
  methods: string[]
  added: { chainId: string; chainName: string; rpcUrls: string[] }[]
  /** hashes of the transactions it signed and sent raw */
  sent: string[]
}

/** eth_sendTransaction's parameter, as viem sends it to a JSON-RPC account */
interface RpcTransactionRequest {
  to?: Hex
  data?: Hex
  input?: Hex
  value?: Hex
  gas?: Hex
}

const bigintOf = (hex: Hex | undefined): bigint | undefined =>
  hex === undefined ? undefined : hexToBigInt(hex)

/** `rpcUrl`: the app's /rpc as Node reaches it (e.g. `${stack.url}rpc`) */
export async function installFakeInjectedWallet(
  page: Page,
  account: LocalAccount,
  rpcUrl: string,
): Promise<void> {
  const wallet = createWalletClient({ account, chain: localChain(31337, rpcUrl), transport: http(rpcUrl) })
  await page.exposeFunction('__fakeWalletSign', async (tx: RpcTransactionRequest): Promise<Hex> => {
    const prepared = await wallet.prepareTransactionRequest({
      to: tx.to,
      data: tx.data ?? tx.input,
      value: bigintOf(tx.value),
      gas: bigintOf(tx.gas),
    })
    return wallet.signTransaction(prepared)
  })
  await page.addInitScript((address: string) => {
    type Listener = (data: unknown) => void
    const listeners = new Map<string, Set<Listener>>()
    const emit = (event: string, data: unknown) => listeners.get(event)?.forEach((f) => f(data))
    const log = { methods: [] as string[], added: [] as unknown[], sent: [] as string[] }
    ;(window as unknown as { __fakeWallet: typeof log }).__fakeWallet = log
    // the Node side's exposed function, looked up when used
    const sign = (tx: unknown) =>
      (window as unknown as { __fakeWalletSign: (tx: unknown) => Promise<string> }).__fakeWalletSign(tx)
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
            return [address]
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
          default: {
            if (chainId !== '0x7a69')
              throw fail(4901, `the fake wallet only reaches the local chain, not ${chainId}`)
            if (method !== 'eth_sendTransaction') return rpc(method, params)
            const hash = (await rpc('eth_sendRawTransaction', [await sign(params![0])])) as string
            log.sent.push(hash)
            return hash
          }
        }
      },
    }
  }, account.address)
}

export const fakeWalletLog = (page: Page): Promise<FakeWalletLog> =>
  page.evaluate(() => (window as unknown as { __fakeWallet: FakeWalletLog }).__fakeWallet)
