// What a market kind gives the chain code: its gateway's ABI, where its factory and gateway sit in a
// deployment, and the reads that differ between kinds (the market struct; LMSR keeps its eᵢ apart).
// The reads every gateway shares (Delphi's interface: status, supplies, prices, balances, metadata)
// stay in market-reads.ts. One file per kind beside this one; chain-kinds.ts lists them.
import type { Abi, Address, PublicClient } from 'viem'
import type { TradeSide } from '../../../../core/markets/trade-quote.ts'
import type { MarketsDeployment } from '../../deployment.ts'

/** A market's factory configuration as every gateway's getMarket returns it. */
export interface ChainMarketConfig {
  outcomeCount: bigint
  k: bigint
  tradingFee: bigint
  tradingDeadline: bigint
  settlementDeadline: bigint
}

/** The market struct with the maths fields of every kind (0 / empty where a kind has none). */
export interface ChainMarketState {
  config: ChainMarketConfig
  initialPool: bigint
  pool: bigint
  tradingFees: bigint
  winningOutcomeIdx: bigint
  refund: bigint
  sumTerm: bigint
  exps: bigint[]
  expSum: bigint
}

export interface ChainMarketAt {
  gateway: Address
  address: Address
}

export interface MarketKindChain {
  /** the gateway's ABI (its shared functions and the kind's own) */
  gatewayAbi: Abi
  factory: (d: MarketsDeployment) => Address
  gateway: (d: MarketsDeployment) => Address
  readConfig: (client: PublicClient, m: ChainMarketAt) => Promise<ChainMarketConfig>
  readState: (client: PublicClient, m: ChainMarketAt, blockNumber: bigint) => Promise<ChainMarketState>
  /** the gateway's quote for a trade at `blockNumber`: tokens paid (buy) or received (sell) */
  quote: (
    client: PublicClient,
    m: ChainMarketAt & { blockNumber: bigint },
    side: TradeSide,
    outcome: number,
    shares: bigint,
  ) => Promise<bigint>
}
