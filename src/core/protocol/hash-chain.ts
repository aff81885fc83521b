import { bytesToHex, hexToBytes, jsonHash, taggedHash } from './digest.ts'

/**
 * The training step-hash chain. Each training step commits to the tip before it, its index and the
 * digest of the step's work, so two runs that agree at step j agree at every step before it: the
 * divergence is monotone and a dispute can bisect for the first differing step
 * (../shared/research/reproducibility.md §2, Verde phase 1).
 *
 *   tip_0     = SHA-256("tabswarm-chain-genesis-v1" ‖ initialWeightsHash)        (32 raw bytes)
 *   tip_n     = SHA-256("tabswarm-chain-v1" ‖ tip_{n−1} ‖ u64be(n) ‖ stepDigest_n)
 *
 * The link hashes the step digest rather than the receipt hash because a receipt's hash covers its
 * own chainTip (that would be circular) and its peerId (two honest peers doing the same step must
 * reach the same tip, so that their chains can be compared).
 */
export interface ChainPosition {
  readonly tip: string
  readonly length: number
}

export function genesis(initialWeightsHash: string): ChainPosition {
  return {
    tip: bytesToHex(taggedHash('tabswarm-chain-genesis-v1', hexToBytes(initialWeightsHash))),
    length: 0,
  }
}

export function extend(chain: ChainPosition, stepDigest: string): ChainPosition {
  const length = chain.length + 1
  const index = new Uint8Array(8)
  new DataView(index.buffer).setBigUint64(0, BigInt(length))
  return {
    tip: bytesToHex(taggedHash('tabswarm-chain-v1', hexToBytes(chain.tip), index, hexToBytes(stepDigest))),
    length,
  }
}

/** The work a receipt describes, without who did it or where it sits in a chain. */
export interface StepWork {
  readonly kind: string
  readonly modelId: string
  readonly configHash: string
  readonly weightsHash: string
  readonly kernelsHash: string
  readonly opSet: string
  readonly inputHash: string
  readonly paramsHash: string
  readonly seed: unknown
  readonly outputHash: string
  readonly traceRoot: string
}

/** stepDigest = SHA-256 of the RFC 8785 JSON of exactly the StepWork fields. */
export function stepDigest(work: StepWork): string {
  const {
    kind,
    modelId,
    configHash,
    weightsHash,
    kernelsHash,
    opSet,
    inputHash,
    paramsHash,
    seed,
    outputHash,
    traceRoot,
  } = work
  return jsonHash({
    kind,
    modelId,
    configHash,
    weightsHash,
    kernelsHash,
    opSet,
    inputHash,
    paramsHash,
    seed,
    outputHash,
    traceRoot,
  })
}
