// The market kinds this client trades, by the name the chain config and the snapshots use. Adding a
// kind is a folder beside dpm/ and lmsr/ with its maths and its MarketKindSpec, one line in each list
// below, and its chain side in src/host/chain/markets/chain-kinds.ts. The mapped type ties each name
// to its own state type, so a lookup by a market's `kind` type-checks without a branch.
import type { DpmMarket } from './dpm/dpm.ts'
import { dpmKind } from './dpm/kind.ts'
import type { LmsrMarket } from './lmsr/lmsr.ts'
import { lmsrKind } from './lmsr/kind.ts'
import type { MarketKindSpec } from './market-kind.ts'

interface KindStates {
  /** Dynamic Parimutuel (Delphi's app markets) */
  dpm: DpmMarket
  /** LMSR (its competition network) */
  lmsr: LmsrMarket
}

export type MarketKind = keyof KindStates
export type KindState<K extends MarketKind> = KindStates[K]

export const MARKET_KINDS: { readonly [K in MarketKind]: MarketKindSpec<KindStates[K]> } = {
  dpm: dpmKind,
  lmsr: lmsrKind,
}

/** Every kind in the order lists show them (DPM first, as the factories are read). */
export const MARKET_KIND_NAMES = Object.keys(MARKET_KINDS) as MarketKind[]
