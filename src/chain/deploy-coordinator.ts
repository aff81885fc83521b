// Deploys SwarmCoordinator to a local chain (anvil) from anvil's account #0, or reuses the deployment
// recorded by an earlier start when the chain still has it (anvil --state keeps the chain across
// restarts). Deterministic: on a fresh chain the coordinator is account #0's first contract,
// 0x5FbDB2315678afecb367f032d93F642f64180aa3.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createPublicClient, createWalletClient, getAddress, http, isAddress } from 'viem'
import type { Address, Chain } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { HDAccount } from 'viem/accounts'
import { swarmCoordinatorAbi, swarmCoordinatorBytecode } from './generated/SwarmCoordinator.ts'

/**
 * DEV ONLY. The well-known mnemonic anvil (and Hardhat) fund their default accounts from. Everybody
 * knows these keys: never use them, or send value to their addresses, on a real network.
 */
export const ANVIL_TEST_MNEMONIC = 'test test test test test test test test test test test junk'

/** DEV ONLY: anvil's funded account `index` (0–9) from ANVIL_TEST_MNEMONIC. */
export const anvilAccount = (index: number): HDAccount =>
  mnemonicToAccount(ANVIL_TEST_MNEMONIC, { addressIndex: index })

export interface CoordinatorDeployment {
  chainId: number
  rpcUrl: string
  coordinator: Address
  deployedAtBlock: number
}

export interface DeployCoordinatorOptions {
  rpcUrl: string
  /** start of round 0, unix seconds (0 = the deployment block's timestamp) */
  genesisTime: number
  /** seconds per round */
  roundLength: number
  /** where the deployment is recorded; an earlier record is reused when the chain still has it */
  recordFile?: string
}

export interface DeployedCoordinator extends CoordinatorDeployment {
  /** what the contract says; a reused deployment keeps its original genesis */
  genesisTime: number
  roundLength: number
  /** true when an earlier deployment was found on the chain and kept */
  reused: boolean
}

/** A viem chain for a local anvil at `rpcUrl`. */
export function localChain(chainId: number, rpcUrl: string): Chain {
  return {
    id: chainId,
    name: 'tabswarm local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  }
}

export async function deployCoordinator(options: DeployCoordinatorOptions): Promise<DeployedCoordinator> {
  const { rpcUrl, recordFile } = options
  if (!Number.isSafeInteger(options.genesisTime) || options.genesisTime < 0)
    throw new Error(`genesis time must be whole unix seconds, not ${options.genesisTime}`)
  if (!Number.isSafeInteger(options.roundLength) || options.roundLength < 1)
    throw new Error(`round length must be whole seconds ≥ 1, not ${options.roundLength}`)
  const probe = createPublicClient({ transport: http(rpcUrl) })
  const chainId = await probe.getChainId()
  const chain = localChain(chainId, rpcUrl)
  const client = createPublicClient({ chain, transport: http(rpcUrl) })

  const recorded = recordFile ? await readRecord(recordFile) : undefined
  if (recorded && recorded.chainId === chainId) {
    const code = await client.getCode({ address: recorded.coordinator })
    if (code !== undefined && code !== '0x') {
      const contract = { address: recorded.coordinator, abi: swarmCoordinatorAbi } as const
      const [genesisTime, roundLength] = await Promise.all([
        client.readContract({ ...contract, functionName: 'genesisTime' }),
        client.readContract({ ...contract, functionName: 'roundLength' }),
      ])
      if (Number(roundLength) === options.roundLength) {
        const deployment = { ...recorded, rpcUrl }
        return {
          ...deployment,
          genesisTime: Number(genesisTime),
          roundLength: Number(roundLength),
          reused: true,
        }
      }
    }
  }

  const account = anvilAccount(0)
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) })
  const hash = await wallet.deployContract({
    abi: swarmCoordinatorAbi,
    bytecode: swarmCoordinatorBytecode,
    args: [account.address, BigInt(options.genesisTime), BigInt(options.roundLength)],
  })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (receipt.status !== 'success' || !receipt.contractAddress)
    throw new Error(`SwarmCoordinator deployment failed (transaction ${hash})`)
  const coordinator = getAddress(receipt.contractAddress)
  const genesisTime = await client.readContract({
    address: coordinator,
    abi: swarmCoordinatorAbi,
    functionName: 'genesisTime',
  })
  const deployment: CoordinatorDeployment = {
    chainId,
    rpcUrl,
    coordinator,
    deployedAtBlock: Number(receipt.blockNumber),
  }
  if (recordFile) await writeRecord(recordFile, deployment)
  return { ...deployment, genesisTime: Number(genesisTime), roundLength: options.roundLength, reused: false }
}

async function readRecord(file: string): Promise<CoordinatorDeployment | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Partial<CoordinatorDeployment>
    if (
      typeof value.chainId !== 'number' ||
      typeof value.coordinator !== 'string' ||
      !isAddress(value.coordinator) ||
      typeof value.deployedAtBlock !== 'number'
    )
      return undefined
    return {
      chainId: value.chainId,
      rpcUrl: String(value.rpcUrl ?? ''),
      coordinator: getAddress(value.coordinator),
      deployedAtBlock: value.deployedAtBlock,
    }
  } catch {
    return undefined // missing or unreadable: deploy afresh
  }
}

async function writeRecord(file: string, deployment: CoordinatorDeployment): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, JSON.stringify(deployment, null, 2) + '\n')
  await rename(tmp, file)
}
