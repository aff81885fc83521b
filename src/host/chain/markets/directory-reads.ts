// The chain reads behind a market directory's entries (src/core/markets/market-directory.ts), shared by the
// agent commands and the Markets view: the collateral's symbol and decimals, and one entry's snapshot,
// with the directory's metadata (Delphi's REST API) in place of the on-chain URI when it has some.
import type { Address, PublicClient } from 'viem'
import type { CollateralDeployment } from '../deployment.ts'
import { collateralTokenAbi } from '../generated/CollateralToken.ts'
import { readMarketSnapshot, type MarketStatics } from './market-reads.ts'
import type { DirectoryEntry } from '../../../core/markets/market-directory.ts'
import type { MarketSnapshot } from '../../../core/markets/market-snapshot.ts'

/** The collateral as given, or its symbol and decimals read from the token at `collateral`. */
export async function readCollateral(
  client: PublicClient,
  collateral: Address | CollateralDeployment,
): Promise<CollateralDeployment> {
  if (typeof collateral !== 'string') return collateral
  const token = { address: collateral, abi: collateralTokenAbi } as const
  const [symbol, decimals] = await Promise.all([
    client.readContract({ ...token, functionName: 'symbol' }),
    client.readContract({ ...token, functionName: 'decimals' }),
  ])
  return { address: collateral, symbol, decimals }
}

/** `entry`'s market at `blockNumber`; `statics` from readMarketStatics (callers may cache them). */
export function readEntrySnapshot(
  client: PublicClient,
  entry: DirectoryEntry,
  statics: MarketStatics,
  options: { blockNumber: bigint; tokenDecimals: number },
): Promise<MarketSnapshot> {
  const metadata = entry.metadata ? { metadata: entry.metadata, metadataError: null } : {}
  const createdBlocks = entry.createdBlock
    ? new Map([[entry.ref.address.toLowerCase(), entry.createdBlock]])
    : undefined
  return readMarketSnapshot(client, { ...entry.ref, ...statics, ...metadata }, { ...options, createdBlocks })
}
