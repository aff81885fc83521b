// DEV ONLY: on the local chain (anvil, 31337) a new burner wallet gets ETH for gas without asking:
// anvil_setBalance through the same RPC the app uses. Never on any other chain.
import { createTestClient, parseEther, publicActions, type Address, type Chain, type Transport } from 'viem'
import { LOCAL_CHAIN_ID } from './chains.ts'

/** Below this the burner is topped up. */
export const LOCAL_MIN_BALANCE = parseEther('1')
/** What it is topped up to. */
export const LOCAL_FUNDED_BALANCE = parseEther('100')

/** Tops `address` up on the local chain when it has less than 1 ETH; true when it did. */
export async function fundOnLocalChain(
  chain: Chain,
  transport: Transport,
  address: Address,
): Promise<boolean> {
  if (chain.id !== LOCAL_CHAIN_ID) return false
  const client = createTestClient({ mode: 'anvil', chain, transport }).extend(publicActions)
  const balance = await client.getBalance({ address })
  if (balance >= LOCAL_MIN_BALANCE) return false
  await client.setBalance({ address, value: LOCAL_FUNDED_BALANCE })
  return true
}
