// Whether a subgraph's history can be trusted to be recent: how far its last indexed block trails the
// chain head, and whether it reports indexing errors (research/delphi.md §9: "subgraph lag → _meta").

/**
 * Blocks a subgraph may trail the chain head before its history is called stale. An indexer that is
 * keeping up trails by a few blocks; 100 blocks is minutes behind on Gensyn's chains, long enough that
 * a trade just made would be missing from the history.
 */
export const SUBGRAPH_STALE_BLOCKS = 100n

export interface SubgraphFreshness {
  /** blocks behind the head (0 when at or past it) */
  lagBlocks: bigint
  stale: boolean
  /** a sentence for the UI and the CLI, null when fresh */
  warning: string | null
}

export function subgraphFreshness(
  indexedBlock: bigint,
  chainHead: bigint,
  hasIndexingErrors: boolean,
  threshold: bigint = SUBGRAPH_STALE_BLOCKS,
): SubgraphFreshness {
  const lagBlocks = chainHead > indexedBlock ? chainHead - indexedBlock : 0n
  const stale = lagBlocks > threshold || hasIndexingErrors
  const warning = hasIndexingErrors
    ? `The subgraph reports indexing errors (indexed up to block ${indexedBlock}, chain at ${chainHead}): the history may be incomplete.`
    : lagBlocks > threshold
      ? `The subgraph is ${lagBlocks} blocks behind the chain (indexed up to block ${indexedBlock}, chain at ${chainHead}; more than ${threshold} is stale): recent trades may be missing from the history.`
      : null
  return { lagBlocks, stale, warning }
}
