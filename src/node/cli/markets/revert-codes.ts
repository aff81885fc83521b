// Which stable error code a gateway revert (or the local maths refusing the same trade, which names the
// same custom error) maps to, so a trade refused before sending and one refused by the chain read alike.
import type { ErrorCode } from './command-error.ts'

const CODES: Record<string, ErrorCode> = {
  TokensInExceedsMax: 'slippage-exceeded',
  TokensOutBelowMin: 'slippage-exceeded',
  MarketNotOpen: 'market-not-open',
  WrongMarketStatus: 'wrong-status',
  MarketProxyNotDeployedByFactory: 'unknown-market',
  OutcomeIdxOutOfBounds: 'unknown-outcome',
  SharesOutBelowMinDelta: 'below-minimum',
  SharesInBelowMinDelta: 'below-minimum',
  OutcomeSupplyBelowMinDelta: 'below-minimum',
  TokensInBelowMin: 'below-minimum',
  ZeroTokensIn: 'below-minimum',
  ZeroNetTokensIn: 'below-minimum',
  ZeroTokensOut: 'below-minimum',
  BuyTooSmall: 'below-minimum',
  SellTooSmall: 'below-minimum',
  SellOverlap: 'below-minimum',
  SqrtOverlap: 'below-minimum',
  GrossTokensOutNotPositive: 'below-minimum',
  ZeroSharesOut: 'zero-amount',
  ZeroSharesIn: 'zero-amount',
  SharesInExceedSupply: 'above-supply',
  GrossTokensOutExceedMarketPool: 'above-supply',
  ExpInputTooBig: 'above-supply',
  ERC20InsufficientBalance: 'insufficient-balance',
  ERC20InsufficientAllowance: 'approval-needed',
  ERC6909InsufficientBalance: 'insufficient-shares',
  RedeemZeroShares: 'nothing-to-redeem',
  RedeemZeroTokensOut: 'nothing-to-redeem',
  EmptyOutcomeIndices: 'nothing-to-liquidate',
  RequestTooOften: 'faucet-too-soon',
}

/** The code for a custom error name; `reverted` for any other. */
export const codeForRevert = (errorName: string): ErrorCode => CODES[errorName] ?? 'reverted'
