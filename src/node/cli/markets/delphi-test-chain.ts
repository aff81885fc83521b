// Test support: Delphi's testnet stood in for by anvil (chain 685685) with our contracts at Delphi's
// published addresses — the collateral at $TEST's, our DPM gateway and factory at the testnet's
// automated-settlement pair, our LMSR gateway and factory at the competition's — and the demo markets
// created through them, so the Delphi backend runs unchanged against a chain that answers at the real
// addresses.
//
// How the contracts get there. `anvil_setCode` places runtime code, but our constructors set
// immutables that are baked into that code: each gateway's `delphiFactory` (the factory it created)
// and each factory's `GATEWAY` (msg.sender at creation, the address every market it clones is
// initialised with and obeys). Copying the code alone would leave a gateway asking a factory at its
// deployment address, and markets obeying a gateway there. So: the token is deployed normally and its
// code and storage (name, symbol, supply: slots 0–2) copied to $TEST's address first; the gateways are
// then deployed normally with $TEST's address as collateral (their TOKEN immutables are already
// right); then each gateway's code is copied with the factory's address replaced by the factory's
// target address, and each factory's code with the gateway's address replaced by the gateway's target.
// The 20-byte addresses only occur in the code as those immutable words. Gateways keep no storage and
// a new factory's list of proxies is empty, so there is no other storage to copy; the market
// implementation a factory clones stays where it was deployed (its address is just an immutable
// pointer). Markets are then created and traded only through the placed contracts.
import {
  createPublicClient,
  createTestClient,
  http,
  toHex,
  zeroAddress,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem'
import { deployMarkets } from '../../../host/chain/deploy-markets.ts'
import type { ChainDeployment, MarketsDeployment } from '../../../host/chain/deployment.ts'
import { collateralTokenAbi, collateralTokenBytecode } from '../../../host/chain/generated/CollateralToken.ts'
import { dynamicParimutuelGatewayAbi } from '../../../host/chain/generated/DynamicParimutuelGateway.ts'
import { anvilAccount, deployContract, localClients } from '../../../host/chain/local-clients.ts'
import { seedDemoMarkets } from '../../../host/demo/seed-demo-markets.ts'
import { DELPHI_NETWORKS, type DelphiGateway } from '../../../host/delphi/networks.ts'
import { startAnvil, type Anvil } from '../anvil.ts'

const TESTNET = DELPHI_NETWORKS.testnet
const [AUTOMATED] = TESTNET.gateways
const [COMPETITION_LMSR] = DELPHI_NETWORKS['competition-testnet'].gateways

/** The two gateways the stand-in serves: Delphi's testnet DPM and its competition LMSR (same chain). */
export const STAND_IN_GATEWAYS: readonly DelphiGateway[] = [AUTOMATED!, COMPETITION_LMSR!]

/** The token's storage: name, symbol (short strings fit their slot) and totalSupply. */
const TOKEN_STORAGE_SLOTS = 3

/** The ETH `fund` gives for gas (100 ETH). */
const GAS_MONEY = 10n ** 20n

/** Anvil account index of the trader (not the deployer/oracle #0). */
const TRADER_INDEX = 5

export interface DelphiTestChain {
  anvil: Anvil
  client: PublicClient
  /** the placed contracts, as a deployment (Delphi's addresses) */
  markets: MarketsDeployment
  token: Address
  trader: { address: Address; privateKey: Hex }
  /** gives `address` gas (anvil_setBalance) and `tokens` whole $TEST (another trader, e.g. a tab's burner) */
  fund(address: Address, tokens: bigint): Promise<void>
  balance(address?: Address): Promise<bigint>
  advance(seconds: number): Promise<void>
  mine(blocks: number): Promise<void>
  /** the oracle (anvil #0) settles a DPM market through the placed gateway */
  settle(market: Address, winner: number): Promise<void>
}

const hexBody = (a: Address) => a.slice(2).toLowerCase()

/** `code` with every occurrence of address `from` replaced by `to`; throws when there is none. */
function retarget(code: Hex, from: Address, to: Address, what: string): Hex {
  const parts = code.toLowerCase().split(hexBody(from))
  if (parts.length < 2) throw new Error(`${what}: its code does not hold ${from}`)
  return parts.join(hexBody(to)) as Hex
}

export async function startDelphiTestChain(port: number, traderTokens: bigint): Promise<DelphiTestChain> {
  const anvil = await startAnvil({ port, chainId: TESTNET.chainId })
  const rpcUrl = anvil.rpcUrl
  const client = createPublicClient({ transport: http(rpcUrl) }) as PublicClient
  const test = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
  const owner = await localClients(rpcUrl)
  const send = async (hash: Promise<Hex>) => {
    const receipt = await client.waitForTransactionReceipt({ hash: await hash, pollingInterval: 50 })
    if (receipt.status !== 'success') throw new Error('test setup transaction reverted')
  }
  const place = async (target: Address, code: Hex) => test.setCode({ address: target, bytecode: code })

  // 1. the collateral at $TEST's address
  const tokenAt = await deployContract(owner.client, owner.wallet, 'CollateralToken', {
    abi: collateralTokenAbi,
    bytecode: collateralTokenBytecode,
    args: ['Delphi Test Token', 'TEST', 6, 1_000n * 10n ** 6n, 3_600n, owner.wallet.account.address],
  })
  await place(TESTNET.token, (await client.getCode({ address: tokenAt.address }))!)
  for (let slot = 0; slot < TOKEN_STORAGE_SLOTS; slot++) {
    const index = toHex(slot, { size: 32 })
    const value = await client.getStorageAt({ address: tokenAt.address, slot: index })
    await test.setStorageAt({ address: TESTNET.token, index, value: value ?? toHex(0, { size: 32 }) })
  }

  // 2. the gateways (and their factories), trading $TEST, deployed where the deployer's nonce puts them
  const deployed = await deployMarkets({
    rpcUrl,
    collateral: TESTNET.token,
    oracle: owner.wallet.account.address,
  })

  // 3. each pair copied to Delphi's addresses, their immutables pointing at each other's new address
  const pairs = [
    { from: { gateway: deployed.dpmGateway, factory: deployed.dpmFactory }, to: AUTOMATED! },
    { from: { gateway: deployed.lmsrGateway, factory: deployed.lmsrFactory }, to: COMPETITION_LMSR! },
  ]
  for (const { from, to } of pairs) {
    const gatewayCode = (await client.getCode({ address: from.gateway }))!
    const factoryCode = (await client.getCode({ address: from.factory }))!
    await place(to.gateway, retarget(gatewayCode, from.factory, to.factory, `${to.label} gateway`))
    await place(to.factory, retarget(factoryCode, from.gateway, to.gateway, `${to.label} factory`))
  }
  const markets: MarketsDeployment = {
    dpmGateway: AUTOMATED!.gateway,
    dpmFactory: AUTOMATED!.factory,
    lmsrGateway: COMPETITION_LMSR!.gateway,
    lmsrFactory: COMPETITION_LMSR!.factory,
  }

  // 4. the demo markets, created and traded through the placed contracts
  const deployment: ChainDeployment = {
    chainId: TESTNET.chainId,
    rpcUrl,
    coordinator: zeroAddress,
    deployedAtBlock: 0,
    collateral: { address: TESTNET.token, symbol: 'TEST', decimals: 6 },
    markets,
  }
  await seedDemoMarkets({ rpcUrl, deployment })

  const hd = anvilAccount(TRADER_INDEX)
  const trader = { address: hd.address, privateKey: toHex(hd.getHdKey().privateKey!) }
  const mint = (to: Address, tokens: bigint) =>
    send(
      owner.wallet.writeContract({
        address: TESTNET.token,
        abi: collateralTokenAbi,
        functionName: 'mint',
        args: [to, tokens * 10n ** 6n],
      }),
    )
  await mint(trader.address, traderTokens)
  return {
    anvil,
    client,
    markets,
    token: TESTNET.token,
    trader,
    fund: async (address, tokens) => {
      await test.setBalance({ address, value: GAS_MONEY })
      await mint(address, tokens)
    },
    balance: (address = trader.address) =>
      client.readContract({
        address: TESTNET.token,
        abi: collateralTokenAbi,
        functionName: 'balanceOf',
        args: [address],
      }),
    advance: async (seconds) => {
      await test.increaseTime({ seconds })
      await test.mine({ blocks: 1 })
    },
    mine: (blocks) => test.mine({ blocks }),
    settle: (market, winner) =>
      send(
        owner.wallet.writeContract({
          address: AUTOMATED!.gateway,
          abi: dynamicParimutuelGatewayAbi,
          functionName: 'settleMarket',
          args: [market, BigInt(winner)],
        }),
      ),
  }
}
