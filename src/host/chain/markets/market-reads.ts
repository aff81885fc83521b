// Reads the markets of a deployment from the chain: the proxies of every kind's factory, then
// per market its metadata (checked against its content hash), status, config, pool, supplies, spot
// prices and implied probabilities, and the connected wallet's shares and allowance. The reads of one
// refresh are issued together at one block, so an HTTP transport with `batch: true` sends them as one
// JSON-RPC batch (the local chain has no Multicall3).
import type { Address, PublicClient } from 'viem'
import { decodeMetadata } from '../../../core/markets/metadata.ts'
import type { MarketMetadataDoc } from '../../../core/markets/metadata.ts'
import { MARKET_KINDS, MARKET_KIND_NAMES } from '../../../core/markets/market-kinds.ts'
import type { MarketPosition, MarketRef, MarketSnapshot } from '../../../core/markets/market-snapshot.ts'
import type { MarketsDeployment } from '../deployment.ts'
import { collateralTokenAbi } from '../generated/CollateralToken.ts'
import { delphiFactoryAbi } from '../generated/DelphiFactory.ts'
import { dynamicParimutuelGatewayAbi } from '../generated/DynamicParimutuelGateway.ts'
import { CHAIN_KINDS } from './chain-kinds.ts'

/** Delphi's gateway interface, which every kind's gateway implements (the DPM ABI spells it). */
const sharedGatewayAbi = dynamicParimutuelGatewayAbi

/** The market proxies of every kind's factory, kind by kind (DPM first), each in factory order. */
export async function listMarkets(
  client: PublicClient,
  markets: MarketsDeployment,
  blockNumber?: bigint,
): Promise<MarketRef[]> {
  const lists = await Promise.all(
    MARKET_KIND_NAMES.map(async (kind) => {
      const factory = CHAIN_KINDS[kind].factory(markets)
      const gateway = CHAIN_KINDS[kind].gateway(markets)
      const count = await client.readContract({
        address: factory,
        abi: delphiFactoryAbi,
        functionName: 'getTotalMarketProxiesCount',
        blockNumber,
      })
      if (count === 0n) return []
      const proxies = await client.readContract({
        address: factory,
        abi: delphiFactoryAbi,
        functionName: 'getMarketProxies',
        args: [0n, count - 1n],
        blockNumber,
      })
      return proxies.map((address, index) => ({ address, kind, gateway, index }))
    }),
  )
  return lists.flat()
}

/** What never changes once a market exists: its metadata and outcome count. */
export interface MarketStatics {
  metadata: MarketMetadataDoc | null
  metadataError: string | null
  outcomeCount: number
}

export async function readMarketStatics(client: PublicClient, ref: MarketRef): Promise<MarketStatics> {
  const [encoded, config] = await Promise.all([
    client.readContract({
      address: ref.gateway,
      abi: sharedGatewayAbi,
      functionName: 'marketMetadata',
      args: [ref.address],
    }),
    CHAIN_KINDS[ref.kind].readConfig(client, ref),
  ])
  const outcomeCount = Number(config.outcomeCount)
  try {
    return { metadata: decodeMetadata(encoded), metadataError: null, outcomeCount }
  } catch (err) {
    return { metadata: null, metadataError: (err as Error).message, outcomeCount }
  }
}

const indices = (n: number): bigint[] => Array.from({ length: n }, (_, i) => BigInt(i))

export interface ReadMarketOptions {
  blockNumber: bigint
  tokenDecimals: number
  /** creation blocks from NewMarketProxy events, by lower-case address */
  createdBlocks?: ReadonlyMap<string, bigint>
}

/** The state of one market at `blockNumber` (every read pinned to that block). */
export async function readMarketSnapshot(
  client: PublicClient,
  ref: MarketRef & MarketStatics,
  options: ReadMarketOptions,
): Promise<MarketSnapshot> {
  const { blockNumber } = options
  const ids = indices(ref.outcomeCount)
  const gateway = { address: ref.gateway, abi: sharedGatewayAbi, blockNumber } as const
  const [status, supplies, spotPrices, probabilities, state] = await Promise.all([
    client.readContract({ ...gateway, functionName: 'marketStatus', args: [ref.address] }),
    client.readContract({ ...gateway, functionName: 'totalSupplies', args: [ref.address, ids] }),
    client.readContract({ ...gateway, functionName: 'spotPrices', args: [ref.address, ids] }),
    client.readContract({ ...gateway, functionName: 'spotImpliedProbabilities', args: [ref.address, ids] }),
    CHAIN_KINDS[ref.kind].readState(client, ref, blockNumber),
  ])
  return {
    address: ref.address,
    kind: ref.kind,
    gateway: ref.gateway,
    index: ref.index,
    metadata: ref.metadata,
    metadataError: ref.metadataError,
    createdBlock: options.createdBlocks?.get(ref.address.toLowerCase()) ?? null,
    status,
    outcomeCount: ref.outcomeCount,
    k: state.config.k,
    tradingFee: state.config.tradingFee,
    tradingDeadline: state.config.tradingDeadline,
    settlementDeadline: state.config.settlementDeadline,
    initialPool: state.initialPool,
    pool: state.pool,
    tradingFees: state.tradingFees,
    refund: state.refund,
    supplies: [...supplies],
    sumTerm: state.sumTerm,
    exps: state.exps,
    expSum: state.expSum,
    winningOutcomeIdx: state.winningOutcomeIdx,
    spotPrices: [...spotPrices],
    priceDecimals: MARKET_KINDS[ref.kind].priceDecimals(options.tokenDecimals),
    probabilities: [...probabilities],
    tokenDecimals: options.tokenDecimals,
    blockNumber,
  }
}

/** The wallet's shares of every outcome and the collateral allowance it gave the market proxy. */
export async function readMarketPosition(
  client: PublicClient,
  ref: MarketRef & { outcomeCount: number },
  owner: Address,
  collateral: Address,
  blockNumber: bigint,
): Promise<MarketPosition> {
  const ids = indices(ref.outcomeCount)
  const [shares, allowance] = await Promise.all([
    client.readContract({
      address: ref.gateway,
      abi: sharedGatewayAbi,
      functionName: 'batchBalanceOf',
      args: [ref.address, ids.map(() => owner), ids],
      blockNumber,
    }),
    client.readContract({
      address: collateral,
      abi: collateralTokenAbi,
      functionName: 'allowance',
      args: [owner, ref.address],
      blockNumber,
    }),
  ])
  return { shares: [...shares], allowance }
}
