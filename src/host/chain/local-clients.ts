// viem clients for a local dev chain (anvil), signing with anvil's well-known account #0, and the
// deployment helpers the local contract deployments share.
import { createPublicClient, createWalletClient, getAddress, http } from 'viem'
import type { Abi, Account, Address, Chain, Hex, PublicClient, Transport, WalletClient } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { HDAccount } from 'viem/accounts'

/**
 * DEV ONLY. The well-known mnemonic anvil (and Hardhat) fund their default accounts from. Everybody
 * knows these keys: never use them, or send value to their addresses, on a real network.
 */
export const ANVIL_TEST_MNEMONIC = 'test test test test test test test test test test test junk'

/** DEV ONLY: anvil's funded account `index` (0–9) from ANVIL_TEST_MNEMONIC. */
export const anvilAccount = (index: number): HDAccount =>
  mnemonicToAccount(ANVIL_TEST_MNEMONIC, { addressIndex: index })

/** A viem chain for a local anvil at `rpcUrl`. */
export function localChain(chainId: number, rpcUrl: string): Chain {
  return {
    id: chainId,
    name: 'tabswarm local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  }
}

export type LocalWallet = WalletClient<Transport, Chain, Account>

export interface LocalClients {
  chainId: number
  client: PublicClient
  /** signs with anvil's account #0, the deployer of every local contract */
  wallet: LocalWallet
}

export async function localClients(
  rpcUrl: string,
  account: Account = anvilAccount(0),
): Promise<LocalClients> {
  const chainId = await createPublicClient({ transport: http(rpcUrl) }).getChainId()
  const chain = localChain(chainId, rpcUrl)
  return {
    chainId,
    client: createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient,
    wallet: createWalletClient({ account, chain, transport: http(rpcUrl) }),
  }
}

export async function hasCode(client: PublicClient, address: Address): Promise<boolean> {
  const code = await client.getCode({ address })
  return code !== undefined && code !== '0x'
}

/** Deploys and waits for the receipt; a failed deployment throws an error naming the contract. */
export async function deployContract(
  client: PublicClient,
  wallet: LocalWallet,
  name: string,
  params: { abi: Abi; bytecode: Hex; args: readonly unknown[] },
): Promise<{ address: Address; blockNumber: number }> {
  const hash = await wallet.deployContract({ ...params, account: wallet.account, chain: wallet.chain })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (receipt.status !== 'success' || !receipt.contractAddress)
    throw new Error(`${name} deployment failed (transaction ${hash})`)
  return { address: getAddress(receipt.contractAddress), blockNumber: Number(receipt.blockNumber) }
}
