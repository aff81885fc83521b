// DEV ONLY: on the local chain (anvil, 31337) a new burner wallet gets ETH for gas without asking, from
// the app server's POST /faucet (src/node/cli/faucet.ts): the page cannot call anvil_setBalance itself,
// /rpc forwards standard reads and signed transactions only. Never on any other chain.
import { parseEther, type Address } from 'viem'
import { LOCAL_CHAIN_ID } from '../chain/chains.ts'

/** Where the app server serves its faucet, next to /rpc. */
export const FAUCET_PATH = '/faucet'
/** Below this the burner is topped up. */
export const LOCAL_MIN_BALANCE = parseEther('1')
/** What it is topped up to. */
export const LOCAL_FUNDED_BALANCE = parseEther('100')

/** What /faucet answers on success; a refusal is {"error": sentence}. */
export interface FaucetReply {
  /** false: the address had LOCAL_MIN_BALANCE or more, nothing was given */
  funded: boolean
  /** wei, decimal */
  balance: string
}

/** Asks the faucet at `faucetUrl` to top `address` up on the local chain; true when it did. */
export async function fundOnLocalChain(
  chainId: number,
  address: Address,
  faucetUrl: string,
  fetcher: typeof fetch = fetch,
): Promise<boolean> {
  if (chainId !== LOCAL_CHAIN_ID) return false
  const res = await fetcher(faucetUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address }),
  })
  const reply = (await res.json().catch(() => null)) as Partial<FaucetReply> & { error?: unknown }
  if (!res.ok)
    throw new Error(
      typeof reply?.error === 'string'
        ? reply.error
        : `The faucet at ${faucetUrl} answered HTTP ${res.status}.`,
    )
  return reply?.funded === true
}
