// The market transactions as contract calls for the wallet's send (simulate → confirm → sign →
// receipt): approving the market proxy for the collateral, buying exact shares, selling exact shares,
// and leaving an ended market (redeeming winning shares, liquidating held outcomes).
import type { Abi, Address } from 'viem'
import type { MarketKind } from '../../../core/markets/market-kinds.ts'
import type { ContractCall } from '../contract-tx.ts'
import { collateralTokenAbi } from '../generated/CollateralToken.ts'
import { CHAIN_KINDS } from './chain-kinds.ts'

const gatewayAbi = (kind: MarketKind): Abi => CHAIN_KINDS[kind].gatewayAbi

/** Traders approve the market proxy (it holds the collateral), not the gateway. */
export function approveMarketCall(collateral: Address, market: Address, amount: bigint): ContractCall {
  return {
    address: collateral,
    abi: collateralTokenAbi as Abi,
    functionName: 'approve',
    args: [market, amount],
  }
}

export interface MarketTarget {
  kind: MarketKind
  gateway: Address
  address: Address
}

export function buyExactOutCall(
  m: MarketTarget,
  outcome: number,
  sharesOut: bigint,
  maxTokensIn: bigint,
): ContractCall {
  return {
    address: m.gateway,
    abi: gatewayAbi(m.kind),
    functionName: 'buyExactOut',
    args: [m.address, BigInt(outcome), sharesOut, maxTokensIn],
  }
}

export function sellExactInCall(
  m: MarketTarget,
  outcome: number,
  sharesIn: bigint,
  minTokensOut: bigint,
): ContractCall {
  return {
    address: m.gateway,
    abi: gatewayAbi(m.kind),
    functionName: 'sellExactIn',
    args: [m.address, BigInt(outcome), sharesIn, minTokensOut],
  }
}

/** Redeems all of the caller's winning shares of a settled market. */
export function redeemCall(m: MarketTarget): ContractCall {
  return { address: m.gateway, abi: gatewayAbi(m.kind), functionName: 'redeem', args: [m.address] }
}

/** Liquidates the caller's whole balance of each listed outcome of an expired or failed market. */
export function liquidateCall(m: MarketTarget, outcomes: readonly number[]): ContractCall {
  return {
    address: m.gateway,
    abi: gatewayAbi(m.kind),
    functionName: 'liquidate',
    args: [m.address, outcomes.map(BigInt)],
  }
}
