// Where a client finds markets, apart from how it reads their state: the local deployment's factories,
// or Delphi's REST API routed to its gateways. A directory names each market with its gateway (and,
// when it has them, its creation block and metadata); the chain reads then give its state.
import type { Address } from 'viem'
import type { MarketHistory } from './market-history.ts'
import type { MarketRef, MarketSnapshot } from './market-snapshot.ts'
import type { MarketMetadataDoc } from './metadata.ts'
import type { MarketSettlement } from './settlement-proof.ts'

/** One market as a directory knows it. */
export interface DirectoryEntry {
  ref: MarketRef
  /** block of its creation, when known (the list's "newest first" order) */
  createdBlock?: bigint | null
  /** the directory's metadata (Delphi's REST API), instead of decoding the on-chain URI */
  metadata?: MarketMetadataDoc
  /** whether it settles verifiably, and its proof (Delphi's REST API); absent on the local chain */
  settlement?: MarketSettlement
}

export interface MarketDirectory {
  list(blockNumber: bigint): Promise<DirectoryEntry[]>
  /** a reference a person typed (an address, or what the directory's list shows) */
  find(text: string, blockNumber: bigint): Promise<DirectoryEntry>
  /** the markets where `owner` holds shares, when the directory knows (else every market is read) */
  heldBy?(owner: Address, blockNumber: bigint): Promise<DirectoryEntry[]>
  history(m: MarketSnapshot, chainHead: bigint): Promise<MarketHistory>
}
