import { concatBytes } from '@noble/hashes/utils.js'
import type { QTensor } from '../kernels/ref/tensor.ts'
import type { TraceHook } from '../model/trace-hook.ts'
import { bytesToHex, hexToBytes } from '../../core/protocol/digest.ts'
import { merkleRoot } from './merkle.ts'
import { tensorHash } from './tensor-bytes.ts'
import type { TraceEntry } from '../../core/protocol/inputs-file.ts'

/** A trace being recorded: pass `hook` to forward/backward/trainStep/generate. */
export interface TraceRecorder {
  readonly hook: TraceHook
  readonly entries: TraceEntry[]
}

export function traceRecorder(): TraceRecorder {
  const entries: TraceEntry[] = []
  return { entries, hook: (op: string, output: QTensor) => entries.push({ op, hash: tensorHash(output) }) }
}

/**
 * The receipts' traceRoot: Merkle root over leaves `outputHash (32 bytes) ‖ UTF-8 op name`, in
 * execution order. The name is in the leaf so that two traces that agree on a root also agree on
 * which op produced each hash: a dispute over op k is then about the same op on both sides.
 */
export function traceRoot(entries: readonly TraceEntry[]): string {
  const leaves = entries.map((e) => concatBytes(hexToBytes(e.hash), new TextEncoder().encode(e.op)))
  return bytesToHex(merkleRoot(leaves))
}

export interface Divergence {
  readonly index: number
  /** The op at that index in the trace being checked (or the other one where it ended early). */
  readonly op: string
  readonly claimed?: TraceEntry
  readonly recomputed?: TraceEntry
}

/** The first index where two traces differ in op name or output hash; undefined when equal. */
export function firstDivergence(
  claimed: readonly TraceEntry[],
  recomputed: readonly TraceEntry[],
): Divergence | undefined {
  const n = Math.max(claimed.length, recomputed.length)
  for (let index = 0; index < n; index++) {
    const a = claimed[index]
    const b = recomputed[index]
    if (a?.op !== b?.op || a?.hash !== b?.hash) return { index, op: (b ?? a)!.op, claimed: a, recomputed: b }
  }
  return undefined
}
