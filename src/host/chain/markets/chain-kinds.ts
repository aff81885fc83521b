// Each market kind's chain side, by the kind's name (src/core/markets/market-kinds.ts lists the kinds).
import type { Address } from 'viem'
import { MARKET_KIND_NAMES, type MarketKind } from '../../../core/markets/market-kinds.ts'
import type { MarketsDeployment } from '../deployment.ts'
import { dpmChain } from './kinds/dpm.ts'
import { lmsrChain } from './kinds/lmsr.ts'
import type { MarketKindChain } from './kinds/market-kind-chain.ts'

export const CHAIN_KINDS: { readonly [K in MarketKind]: MarketKindChain } = {
  dpm: dpmChain,
  lmsr: lmsrChain,
}

/** The kind whose factory is `factory` in `d`, or null for an address that is no factory of it. */
export function kindOfFactory(d: MarketsDeployment, factory: Address): MarketKind | null {
  const lower = factory.toLowerCase()
  return MARKET_KIND_NAMES.find((kind) => CHAIN_KINDS[kind].factory(d).toLowerCase() === lower) ?? null
}
