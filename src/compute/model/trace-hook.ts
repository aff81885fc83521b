import type { QTensor } from '../kernels/ref/tensor.ts'

/**
 * Called with every op's output in execution order. Disputes bisect over these outputs (first the
 * training step, then the op; ../shared/research/reproducibility.md §2), so the names must be the
 * same on every backend that runs the program. The model only calls the hook; hashing and Merkle
 * roots live in src/compute/proof. An absent hook costs one nullish check per op.
 */
export type TraceHook = (op: string, output: QTensor) => void

/** The hook with `prefix` in front of every op name (e.g. "forward/", "token3/"); absent stays absent. */
export function scopedTrace(trace: TraceHook | undefined, prefix: string): TraceHook | undefined {
  return trace && ((op, output) => trace(prefix + op, output))
}
