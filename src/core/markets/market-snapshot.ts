// One market as the client reads it from the chain (src/host/chain/markets/market-reads.ts): its metadata, status,
// config, pool, supplies, spot prices and implied probabilities, and the maths state (DPM Σq², LMSR
// exps) that lets the local maths (market-maths.ts, by kind) quote exactly what the gateway would.
import type { Address } from 'viem'
import type { MarketKind } from './market-kinds.ts'
import type { MarketMetadataDoc } from './metadata.ts'

/** `marketStatus` codes (research/delphi.md §2). */
export const MARKET_STATUS = {
  open: 0,
  awaitingSettlement: 1,
  settled: 2,
  expired: 3,
  failed: 4,
} as const

export interface MarketRef {
  address: Address
  kind: MarketKind
  /** the gateway that trades it (the one whose factory deployed it) */
  gateway: Address
  /** its index in its factory (creation order within the factory) */
  index: number
}

export interface MarketSnapshot extends MarketRef {
  /** null when the metadata could not be read or checked (see metadataError) */
  metadata: MarketMetadataDoc | null
  metadataError: string | null
  /** block the creation was mined in (NewMarketProxy), null when not seen */
  createdBlock: bigint | null
  status: number
  outcomeCount: number
  /** DPM k (1e18 = 1) or LMSR b (wei-shares) */
  k: bigint
  /** 1e18 = 100 % */
  tradingFee: bigint
  /** unix seconds */
  tradingDeadline: bigint
  settlementDeadline: bigint
  initialPool: bigint
  /** collateral base units backing the shares */
  pool: bigint
  tradingFees: bigint
  /** DPM refund of the creator (0 for LMSR) */
  refund: bigint
  /** wei-shares per outcome */
  supplies: bigint[]
  /** DPM Σq² (sumTerm36); 0 for LMSR */
  sumTerm: bigint
  /** LMSR eᵢ and Σeᵢ (WAD); empty / 0 for DPM */
  exps: bigint[]
  expSum: bigint
  /** 2^256 − 1 until set */
  winningOutcomeIdx: bigint
  /** gateway spotPrices: per whole share, in units of 10^-priceDecimals tokens */
  spotPrices: bigint[]
  /** DPM: the token's decimals (base units); LMSR: 18 (WAD fraction of one token) */
  priceDecimals: number
  /** gateway spotImpliedProbabilities, 1e18 = 100 % */
  probabilities: bigint[]
  tokenDecimals: number
  /** the block these values were read at */
  blockNumber: bigint
}

/** What the connected wallet holds on one market. */
export interface MarketPosition {
  /** wei-shares per outcome */
  shares: bigint[]
  /** collateral the market proxy may spend for the wallet */
  allowance: bigint
}

/** The label of outcome `i` (its metadata label, or "Outcome i+1" without metadata). */
export function outcomeLabel(m: Pick<MarketSnapshot, 'metadata'>, i: number): string {
  return m.metadata?.outcomes[i] ?? `Outcome ${i + 1}`
}

export function marketTitle(m: Pick<MarketSnapshot, 'metadata' | 'address'>): string {
  return m.metadata?.question ?? `Market ${m.address}`
}
