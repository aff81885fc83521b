// `deployNewMarketProxy(initialDeposit, metadata, abiEncodedConfig)`: how the config is encoded (the
// MarketConfig struct of contracts/src/MarketTypes.sol; for LMSR markets `k` is the liquidity b).
import { encodeAbiParameters } from 'viem'
import type { Hex } from 'viem'

export interface MarketConfig {
  outcomeCount: bigint
  /** DPM k (1e18 = 1), or LMSR b in wei-shares */
  k: bigint
  /** 1e18 = 100 % */
  tradingFee: bigint
  /** unix seconds */
  tradingDeadline: bigint
  /** unix seconds */
  settlementDeadline: bigint
}

const MARKET_CONFIG_COMPONENTS = [
  { name: 'outcomeCount', type: 'uint256' },
  { name: 'k', type: 'uint256' },
  { name: 'tradingFee', type: 'uint256' },
  { name: 'tradingDeadline', type: 'uint256' },
  { name: 'settlementDeadline', type: 'uint256' },
] as const

export function encodeMarketConfig(config: MarketConfig): Hex {
  return encodeAbiParameters([{ type: 'tuple', components: MARKET_CONFIG_COMPONENTS }], [config])
}
