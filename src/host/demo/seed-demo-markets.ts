// A few markets on a fresh local chain so the market views have something to show: three DPM markets
// (Delphi's app pricing) and one LMSR market (its competition pricing), created by anvil's account #0
// (the collateral's minter) and given a couple of trades each so their prices differ from the start.
// Seeds only when the DPM factory has no market yet, so a restart with the saved chain adds nothing.
import { maxUint256, parseEventLogs } from 'viem'
import type { Abi, Address, Hex } from 'viem'
import { MARKET_KINDS, type MarketKind } from '../../core/markets/market-kinds.ts'
import { encodeMetadata } from '../../core/markets/metadata.ts'
import type { MarketMetadataDoc } from '../../core/markets/metadata.ts'
import type { ChainDeployment } from '../chain/deployment.ts'
import { collateralTokenAbi } from '../chain/generated/CollateralToken.ts'
import { delphiFactoryAbi } from '../chain/generated/DelphiFactory.ts'
import { CHAIN_KINDS } from '../chain/markets/chain-kinds.ts'
import { localClients } from '../chain/local-clients.ts'
import type { LocalClients } from '../chain/local-clients.ts'
import { encodeMarketConfig } from '../../core/markets/market-config.ts'

const WAD = 10n ** 18n
const DAY = 86_400n

interface DemoMarket {
  kind: MarketKind
  metadata: MarketMetadataDoc
  /** DPM k or LMSR b */
  k: bigint
  tradingFee: bigint
  /** whole tokens, for a kind whose creator chooses the deposit (DPM); LMSR takes its max loss b·ln n */
  depositTokens: bigint
  tradingDays: bigint
  /** [outcome, whole shares] bought by the seeder after creation */
  trades: [number, bigint][]
}

export const DEMO_MARKETS: readonly DemoMarket[] = [
  {
    kind: 'dpm',
    metadata: {
      question: 'Will the swarm’s held-out pass@1 reach 50 % within 100 rounds?',
      outcomes: ['Yes', 'No'],
      category: 'miscellaneous',
      resolutionCriteria: 'The Train view’s held-out pass@1 of the swarm’s policy at round 100.',
    },
    k: 10n * WAD,
    tradingFee: 2n * 10n ** 16n,
    depositTokens: 1_000n,
    tradingDays: 30n,
    trades: [[0, 20n]],
  },
  {
    kind: 'dpm',
    metadata: {
      question: 'Which task family will the swarm solve best after 50 rounds?',
      outcomes: ['Arithmetic', 'Base conversion', 'Fractions', 'Propositional logic'],
      category: 'miscellaneous',
      resolutionCriteria: 'Highest held-out pass@1 by task family at round 50; ties go to the first listed.',
    },
    k: 5n * WAD,
    tradingFee: 1n * 10n ** 16n,
    depositTokens: 500n,
    tradingDays: 14n,
    trades: [
      [0, 15n],
      [3, 5n],
    ],
  },
  {
    kind: 'dpm',
    metadata: {
      question: 'How many peers will be online at round 200?',
      outcomes: ['Fewer than 5', '5–20', 'More than 20'],
      category: 'miscellaneous',
      resolutionCriteria: 'Peers with a presence beat in the last 15 s, counted by the relay at round 200.',
    },
    k: 20n * WAD,
    tradingFee: 5n * 10n ** 15n,
    depositTokens: 2_000n,
    tradingDays: 60n,
    trades: [[1, 40n]],
  },
  {
    kind: 'lmsr',
    metadata: {
      question: 'Will a training receipt fail verification this week?',
      outcomes: ['Yes', 'No'],
      category: 'miscellaneous',
      resolutionCriteria: 'Any receipt on the receipts topic whose re-execution diverges, within 7 days.',
    },
    k: 100n * WAD,
    tradingFee: 1n * 10n ** 16n,
    depositTokens: 0n,
    tradingDays: 7n,
    trades: [[1, 30n]],
  },
]

export interface SeededMarket {
  kind: MarketKind
  address: Address
  question: string
}

export async function seedDemoMarkets(options: {
  rpcUrl: string
  deployment: ChainDeployment
}): Promise<SeededMarket[]> {
  const { markets, collateral } = options.deployment
  if (!markets || !collateral)
    throw new Error('seeding demo markets needs the markets and the collateral deployed')
  const clients = await localClients(options.rpcUrl)
  const { client, wallet } = clients
  const existing = await client.readContract({
    address: markets.dpmFactory,
    abi: delphiFactoryAbi,
    functionName: 'getTotalMarketProxiesCount',
  })
  if (existing > 0n) return []

  const unit = 10n ** BigInt(collateral.decimals)
  const send = sender(clients)
  await send(collateral.address, collateralTokenAbi, 'mint', [wallet.account.address, 100_000n * unit])
  for (const factory of Object.values(CHAIN_KINDS).map((k) => k.factory(markets)))
    await send(collateral.address, collateralTokenAbi, 'approve', [factory, maxUint256])

  const { timestamp } = await client.getBlock()
  const seeded: SeededMarket[] = []
  for (const demo of DEMO_MARKETS) {
    const outcomeCount = demo.metadata.outcomes.length
    const tradingDeadline = timestamp + demo.tradingDays * DAY
    const spec = MARKET_KINDS[demo.kind]
    const deposit =
      'chosen' in spec.deposit
        ? demo.depositTokens * unit
        : spec.deposit.fromLiquidity({
            outcomeCount,
            k: demo.k,
            tradingFee: demo.tradingFee,
            tokenDecimals: collateral.decimals,
          })
    const chain = CHAIN_KINDS[demo.kind]
    const factory = chain.factory(markets)
    const logs = await send(factory, delphiFactoryAbi, 'deployNewMarketProxy', [
      deposit,
      encodeMetadata(demo.metadata),
      encodeMarketConfig({
        outcomeCount: BigInt(outcomeCount),
        k: demo.k,
        tradingFee: demo.tradingFee,
        tradingDeadline,
        settlementDeadline: tradingDeadline + DAY / 2n,
      }),
    ])
    const [created] = parseEventLogs({ abi: delphiFactoryAbi, logs, eventName: 'NewMarketProxy' })
    if (!created) throw new Error(`no NewMarketProxy event for “${demo.metadata.question}”`)
    const market = created.args.marketProxy
    // Traders approve the market proxy, which holds the collateral (research/delphi.md §6).
    await send(collateral.address, collateralTokenAbi, 'approve', [market, maxUint256])
    const gateway = { address: chain.gateway(markets), abi: chain.gatewayAbi }
    for (const [outcome, shares] of demo.trades)
      await send(gateway.address, gateway.abi, 'buyExactOut', [
        market,
        BigInt(outcome),
        shares * WAD,
        maxUint256,
      ])
    seeded.push({ kind: demo.kind, address: market, question: demo.metadata.question })
  }
  return seeded
}

/** Sends from account #0 and waits; a revert throws with the function's name. */
function sender({ client, wallet }: LocalClients) {
  return async (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) => {
    const hash: Hex = await wallet.writeContract({ address, abi, functionName, args })
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    if (receipt.status !== 'success')
      throw new Error(`seeding demo markets: ${functionName} reverted (${hash})`)
    return receipt.logs
  }
}
