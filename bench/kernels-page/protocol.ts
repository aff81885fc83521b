// What bench/kernels.ts asks the kernels bench page and what the page answers (no browser code here,
// so Node imports it too).
import type { AttentionShape } from '../../src/compute/kernels/ref/attention.ts'

/** How the page's progress lines (one per op and size) begin on its console. */
export const PROGRESS = 'kernels bench:'

export const OPS = ['matmul', 'softmax', 'attention'] as const
export type OpName = (typeof OPS)[number]

/** Attention's shape at size n: one sequence of n positions, the tiny model's heads (4 query, 2 key/value, 16 wide). */
export const attentionShape = (n: number): AttentionShape => ({
  batch: 1,
  seqLen: n,
  heads: 4,
  kvHeads: 2,
  headDim: 16,
})

/** The powers of two from 64 up to `max`: the sizes of a --max-size sweep. */
export function sizeSweep(max: number): number[] {
  const sizes: number[] = []
  for (let n = 64; n <= max; n *= 2) sizes.push(n)
  return sizes
}

export interface BenchOptions {
  readonly sizes: readonly number[]
  readonly ops: readonly OpName[]
  /** a measurement repeats the call until a timed run takes at least this long */
  readonly minMs: number
  /** the TS twin (one CPU thread, O(n³) for matmul) runs only up to this size */
  readonly twinMaxSize: number
}

export type Timing =
  | {
      /** milliseconds per call: the median of the timed runs of `repeats` calls, each divided by `repeats` */
      readonly ms: number
      readonly repeats: number
      /** every timed run's milliseconds per call */
      readonly samples: readonly number[]
    }
  | { readonly skipped: string }

export interface OpResult {
  readonly op: OpName
  readonly size: number
  readonly shape: string
  readonly repro: Timing
  readonly fast: Timing
  readonly twin: Timing
}

export interface KernelBenchRun {
  readonly adapter: string
  readonly isFallbackAdapter: boolean
  readonly results: OpResult[]
  /** uncaptured WebGPU errors (validation, compilation, out of memory) */
  readonly errors: string[]
}
