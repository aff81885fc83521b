// Everything a local chain needs, deployed in a fixed order from anvil's account #0 (so a fresh chain
// always gets the same addresses) or kept from the recorded deployment when the chain still has it:
// SwarmCoordinator, the collateral token, the DPM and LMSR gateways (each with its factory), then a few
// demo markets. Account #0 is also the markets' oracle (it settles and fails them) on a local chain.
import { deployCollateral } from './deploy-collateral.ts'
import { deployCoordinator } from './deploy-coordinator.ts'
import { deployMarkets } from './deploy-markets.ts'
import { anvilAccount } from './local-clients.ts'
import { seedDemoMarkets } from '../demo/seed-demo-markets.ts'
import type { SeededMarket } from '../demo/seed-demo-markets.ts'
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
  /** create the demo markets on a chain that has no market yet; default true */
  seedMarkets?: boolean
}

export interface DeployedLocalChain {
  deployment: ChainDeployment
  /** the coordinator's; a reused coordinator keeps its original genesis */
  genesisTime: number
  roundLength: number
  /** true when every contract was found on the chain and kept */
  reused: boolean
  /** demo markets created by this call (none when the chain already had markets) */
  seeded: SeededMarket[]
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
  const { reused: marketsReused, ...markets } = await deployMarkets({
    rpcUrl,
    collateral: collateral.address,
    oracle: anvilAccount(0).address,
    previous: collateralReused ? previous?.markets : undefined,
  })
  const deployment: ChainDeployment = {
    chainId: coordinator.chainId,
    rpcUrl,
    coordinator: coordinator.coordinator,
    deployedAtBlock: coordinator.deployedAtBlock ?? previous?.deployedAtBlock ?? 0,
    collateral,
    markets,
  }
  const seeded = options.seedMarkets === false ? [] : await seedDemoMarkets({ rpcUrl, deployment })
  if (recordFile) await writeDeploymentRecord(recordFile, deployment)
  return {
    deployment,
    genesisTime: coordinator.genesisTime,
    roundLength: coordinator.roundLength,
    reused: coordinator.reused && collateralReused && marketsReused,
    seeded,
  }
}
