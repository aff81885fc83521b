// Deploys SwarmCoordinator to a local chain (anvil) from anvil's account #0, or keeps an earlier
// deployment when the chain still has it (anvil --state keeps the chain across restarts).
// Deterministic: on a fresh chain the coordinator is account #0's first contract,
// 0x5FbDB2315678afecb367f032d93F642f64180aa3.
import { getAddress } from 'viem'
import type { Address } from 'viem'
import { swarmCoordinatorAbi, swarmCoordinatorBytecode } from './generated/SwarmCoordinator.ts'
import { deployContract, hasCode, localClients } from './local-clients.ts'

export interface DeployCoordinatorOptions {
  rpcUrl: string
  /** start of round 0, unix seconds (0 = the deployment block's timestamp) */
  genesisTime: number
  /** seconds per round */
  roundLength: number
  /** an earlier deployment, kept when the chain still has its code and its round length matches */
  previous?: Address
}

export interface DeployedCoordinator {
  chainId: number
  coordinator: Address
  /** block of the deployment transaction (of the earlier one when reused) */
  deployedAtBlock?: number
  /** what the contract says; a reused deployment keeps its original genesis */
  genesisTime: number
  roundLength: number
  /** true when the earlier deployment was found on the chain and kept */
  reused: boolean
}

export async function deployCoordinator(options: DeployCoordinatorOptions): Promise<DeployedCoordinator> {
  const { rpcUrl, previous } = options
  if (!Number.isSafeInteger(options.genesisTime) || options.genesisTime < 0)
    throw new Error(`genesis time must be whole unix seconds, not ${options.genesisTime}`)
  if (!Number.isSafeInteger(options.roundLength) || options.roundLength < 1)
    throw new Error(`round length must be whole seconds ≥ 1, not ${options.roundLength}`)
  const { chainId, client, wallet } = await localClients(rpcUrl)
  const read = (address: Address) =>
    Promise.all([
      client.readContract({ address, abi: swarmCoordinatorAbi, functionName: 'genesisTime' }),
      client.readContract({ address, abi: swarmCoordinatorAbi, functionName: 'roundLength' }),
    ])

  if (previous && (await hasCode(client, previous))) {
    const [genesisTime, roundLength] = await read(previous)
    if (Number(roundLength) === options.roundLength)
      return {
        chainId,
        coordinator: previous,
        genesisTime: Number(genesisTime),
        roundLength: Number(roundLength),
        reused: true,
      }
  }

  const { address, blockNumber } = await deployContract(client, wallet, 'SwarmCoordinator', {
    abi: swarmCoordinatorAbi,
    bytecode: swarmCoordinatorBytecode,
    args: [wallet.account.address, BigInt(options.genesisTime), BigInt(options.roundLength)],
  })
  const [genesisTime] = await read(address)
  return {
    chainId,
    coordinator: getAddress(address),
    deployedAtBlock: blockNumber,
    genesisTime: Number(genesisTime),
    roundLength: options.roundLength,
    reused: false,
  }
}
