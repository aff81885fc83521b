// Test support: anvil on a fixed port with the contracts and the demo markets, the deployment written
// to a file (as --deployment takes it), a funded trader whose key goes in TABSWARM_PRIVATE_KEY, and the
// oracle and clock moves the cycle needs (anvil's account #0 is the local markets' oracle).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createPublicClient,
  createTestClient,
  http,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem'
import { deployLocalChain } from '../../../host/chain/deploy-local-chain.ts'
import type { ChainDeployment } from '../../../host/chain/deployment.ts'
import { collateralTokenAbi } from '../../../host/chain/generated/CollateralToken.ts'
import { dynamicParimutuelGatewayAbi } from '../../../host/chain/generated/DynamicParimutuelGateway.ts'
import { anvilAccount, localClients } from '../../../host/chain/local-clients.ts'
import { startAnvil, type Anvil } from '../anvil.ts'

export interface TestChain {
  anvil: Anvil
  deployment: ChainDeployment
  deploymentFile: string
  client: PublicClient
  trader: { address: Address; privateKey: Hex }
  /** the environment a command runs with: the deployment file and the trader's key */
  env: Record<string, string>
  balance(address?: Address): Promise<bigint>
  nonce(address?: Address): Promise<number>
  /** moves the chain's clock forward and mines a block */
  advance(seconds: number): Promise<void>
  /** the oracle settles a DPM market */
  settle(market: Address, winner: number): Promise<void>
  /** writes a copy of the deployment with some fields replaced; returns its path */
  deploymentVariant(changes: Partial<ChainDeployment>): string
}

/** Anvil account index of the trader (not the deployer/oracle #0). */
const TRADER_INDEX = 5

export async function startTestChain(port: number, traderTokens: bigint): Promise<TestChain> {
  const anvil = await startAnvil({ port })
  const { deployment } = await deployLocalChain({ rpcUrl: anvil.rpcUrl, genesisTime: 0, roundLength: 30 })
  const dir = mkdtempSync(join(tmpdir(), 'markets-cli-'))
  const deploymentFile = join(dir, 'deployment.json')
  writeFileSync(deploymentFile, JSON.stringify(deployment))
  const client = createPublicClient({ transport: http(anvil.rpcUrl) }) as PublicClient
  const testClient = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) })
  const owner = await localClients(anvil.rpcUrl)
  const send = async (hash: Promise<Hex>) => {
    const receipt = await client.waitForTransactionReceipt({ hash: await hash, pollingInterval: 50 })
    if (receipt.status !== 'success') throw new Error('test setup transaction reverted')
  }
  const hd = anvilAccount(TRADER_INDEX)
  const trader = { address: hd.address, privateKey: toHex(hd.getHdKey().privateKey!) }
  const collateral = deployment.collateral!
  await send(
    owner.wallet.writeContract({
      address: collateral.address,
      abi: collateralTokenAbi,
      functionName: 'mint',
      args: [trader.address, traderTokens * 10n ** BigInt(collateral.decimals)],
    }),
  )
  let n = 0
  return {
    anvil,
    deployment,
    deploymentFile,
    client,
    trader,
    env: { TABSWARM_DEPLOYMENT: deploymentFile, TABSWARM_PRIVATE_KEY: trader.privateKey },
    balance: (address = trader.address) =>
      client.readContract({
        address: collateral.address,
        abi: collateralTokenAbi,
        functionName: 'balanceOf',
        args: [address],
      }),
    nonce: (address = trader.address) => client.getTransactionCount({ address }),
    advance: async (seconds) => {
      await testClient.increaseTime({ seconds })
      await testClient.mine({ blocks: 1 })
    },
    settle: (market, winner) =>
      send(
        owner.wallet.writeContract({
          address: deployment.markets!.dpmGateway,
          abi: dynamicParimutuelGatewayAbi,
          functionName: 'settleMarket',
          args: [market, BigInt(winner)],
        }),
      ),
    deploymentVariant: (changes) => {
      const file = join(dir, `deployment-${n++}.json`)
      writeFileSync(file, JSON.stringify({ ...deployment, ...changes }))
      return file
    },
  }
}
