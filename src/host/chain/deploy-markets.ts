// Deploys the Delphi-compatible market contracts for one collateral token: a DynamicParimutuelGateway
// and an LmsrGateway, each of which creates its own factory (and the factory's market implementation)
// in its constructor. Token-agnostic: any ERC-20 with 6–18 decimals. Signs with anvil's account #0
// unless told otherwise; keeps an earlier deployment the chain still has.
import { getAddress } from 'viem'
import type { Account, Address } from 'viem'
import type { MarketsDeployment } from './deployment.ts'
import {
  dynamicParimutuelGatewayAbi,
  dynamicParimutuelGatewayBytecode,
} from './generated/DynamicParimutuelGateway.ts'
import { lmsrGatewayAbi, lmsrGatewayBytecode } from './generated/LmsrGateway.ts'
import { deployContract, hasCode, localClients } from './local-clients.ts'

export interface DeployMarketsOptions {
  rpcUrl: string
  /** the collateral every market of these gateways trades in */
  collateral: Address
  /** may settle (`settleMarket`) and fail (`failMarket`) markets */
  oracle: Address
  /** the deployer; default anvil's account #0 */
  account?: Account
  /** an earlier deployment, kept when the chain still has all four contracts */
  previous?: MarketsDeployment
}

export async function deployMarkets(
  options: DeployMarketsOptions,
): Promise<MarketsDeployment & { reused: boolean }> {
  const { rpcUrl, collateral, oracle, previous } = options
  const { client, wallet } = await localClients(rpcUrl, options.account)
  if (previous) {
    const present = await Promise.all(Object.values(previous).map((a) => hasCode(client, a)))
    if (present.every(Boolean)) return { ...previous, reused: true }
  }
  const dpm = await deployContract(client, wallet, 'DynamicParimutuelGateway', {
    abi: dynamicParimutuelGatewayAbi,
    bytecode: dynamicParimutuelGatewayBytecode,
    args: [collateral, oracle],
  })
  const lmsr = await deployContract(client, wallet, 'LmsrGateway', {
    abi: lmsrGatewayAbi,
    bytecode: lmsrGatewayBytecode,
    args: [collateral, oracle],
  })
  const [dpmFactory, lmsrFactory] = await Promise.all([
    client.readContract({
      address: dpm.address,
      abi: dynamicParimutuelGatewayAbi,
      functionName: 'delphiFactory',
    }),
    client.readContract({ address: lmsr.address, abi: lmsrGatewayAbi, functionName: 'delphiFactory' }),
  ])
  return {
    dpmFactory: getAddress(dpmFactory),
    dpmGateway: dpm.address,
    lmsrFactory: getAddress(lmsrFactory),
    lmsrGateway: lmsr.address,
    reused: false,
  }
}
