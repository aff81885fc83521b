// Everything a local chain needs, deployed in a fixed order from anvil's account #0 (so a fresh chain
// always gets the same addresses) or kept from the recorded deployment when the chain still has it:
// SwarmCoordinator, then the collateral token.
import { deployCollateral } from './deploy-collateral.ts'
import { deployCoordinator } from './deploy-coordinator.ts'
import { readDeploymentRecord, writeDeploymentRecord } from './deployment-record.ts'
import type { ChainDeployment } from './deployment.ts'

export interface DeployLocalChainOptions {
  rpcUrl: string
  /** start of round 0, unix seconds (0 = the deployment block's timestamp) */
  genesisTime: number
  /** seconds per round */
  roundLength: number
  /** where the deployment is recorded; an earlier record is reused where the chain still has it */
  recordFile?: string
}

export interface DeployedLocalChain {
  deployment: ChainDeployment
  /** the coordinator's; a reused coordinator keeps its original genesis */
  genesisTime: number
  roundLength: number
  /** true when every contract was found on the chain and kept */
  reused: boolean
}

export async function deployLocalChain(options: DeployLocalChainOptions): Promise<DeployedLocalChain> {
  const { rpcUrl, recordFile } = options
  const recorded = recordFile ? await readDeploymentRecord(recordFile) : undefined
  const coordinator = await deployCoordinator({ ...options, previous: recorded?.coordinator })
  const previous = recorded?.chainId === coordinator.chainId ? recorded : undefined
  const { reused: collateralReused, ...collateral } = await deployCollateral({
    rpcUrl,
    previous: previous?.collateral,
  })
  const deployment: ChainDeployment = {
    chainId: coordinator.chainId,
    rpcUrl,
    coordinator: coordinator.coordinator,
    deployedAtBlock: coordinator.deployedAtBlock ?? previous?.deployedAtBlock ?? 0,
    collateral,
  }
  if (recordFile) await writeDeploymentRecord(recordFile, deployment)
  return {
    deployment,
    genesisTime: coordinator.genesisTime,
    roundLength: coordinator.roundLength,
    reused: coordinator.reused && collateralReused,
  }
}
