import type { adamStep } from '../kernels/ref/adam.ts'
import type { attention, attentionBackward } from '../kernels/ref/attention.ts'
import type { clipGradNorm } from '../kernels/ref/clip.ts'
import type { crossEntropy, crossEntropyBackward } from '../kernels/ref/cross-entropy.ts'
import type { add, requantize } from '../kernels/ref/elementwise.ts'
import type { embeddingGather, embeddingScatterAdd } from '../kernels/ref/embedding.ts'
import type { grpoLoss } from '../kernels/ref/grpo.ts'
import type { tokenLogProbBackward, tokenLogProbs } from '../kernels/ref/logprob.ts'
import type { matmul } from '../kernels/ref/matmul.ts'
import type { narrow16 } from '../kernels/ref/narrow.ts'
import type { rmsNorm, rmsNormBackward } from '../kernels/ref/rmsnorm.ts'
import type { rope } from '../kernels/ref/rope.ts'
import type { sampleToken } from '../kernels/ref/sampling.ts'
import type { swiglu, swigluBackward } from '../kernels/ref/silu.ts'

/**
 * Every reproducible op a model program calls, with the TS twin's signatures. A backend implements
 * the same contract with the same bits: the twin (twin-ops.ts, synchronous) or the WGSL kernels
 * (src/compute/kernels/gpu/gpu-ops.ts, asynchronous).
 */
export interface OpTable {
  readonly embeddingGather: typeof embeddingGather
  readonly embeddingScatterAdd: typeof embeddingScatterAdd
  readonly requantize: typeof requantize
  readonly add: typeof add
  readonly narrow16: typeof narrow16
  readonly matmul: typeof matmul
  readonly rmsNorm: typeof rmsNorm
  readonly rmsNormBackward: typeof rmsNormBackward
  readonly rope: typeof rope
  readonly attention: typeof attention
  readonly attentionBackward: typeof attentionBackward
  readonly swiglu: typeof swiglu
  readonly swigluBackward: typeof swigluBackward
  readonly crossEntropy: typeof crossEntropy
  readonly crossEntropyBackward: typeof crossEntropyBackward
  readonly tokenLogProbs: typeof tokenLogProbs
  readonly tokenLogProbBackward: typeof tokenLogProbBackward
  readonly grpoLoss: typeof grpoLoss
  readonly clipGradNorm: typeof clipGradNorm
  readonly adamStep: typeof adamStep
  readonly sampleToken: typeof sampleToken
}

export type OpName = keyof OpTable
type OpArgs<K extends OpName> = Parameters<OpTable[K]>
type OpResult<K extends OpName> = ReturnType<OpTable[K]>

/** The same ops on a backend that may answer later (a GPU reads its results back asynchronously). */
export type AsyncOpTable = {
  readonly [K in OpName]: (...args: OpArgs<K>) => OpResult<K> | Promise<OpResult<K>>
}

/** One op a program asks its backend to run. */
export interface OpCall {
  readonly op: OpName
  readonly args: readonly unknown[]
}

/**
 * A model computation (a forward pass, a training step, a generation) written once as a generator
 * that yields each op it needs and receives the op's result: `runSync` drives it on the twin,
 * `runAsync` on any backend. Programs do their host-side bookkeeping (shapes, KV concatenation,
 * tracing) themselves, so every backend sees the same ops in the same order and the trace names
 * cannot drift between backends.
 */
export type Program<T> = Generator<OpCall, T, unknown>

/** Asks the backend for one op: `const y = yield* op('rmsNorm', x, w, eps, exp)`. */
export function* op<K extends OpName>(name: K, ...args: OpArgs<K>): Generator<OpCall, OpResult<K>, unknown> {
  // the driver answers each call with the result of the op it names, so the cast is exact
  return (yield { op: name, args }) as OpResult<K>
}

function apply(ops: AsyncOpTable | OpTable, call: OpCall): unknown {
  // a call's args were built from OpArgs<call.op> by `op`, so this spread matches the signature
  return (ops[call.op] as (...args: readonly unknown[]) => unknown)(...call.args)
}

/** Runs a program to its end on synchronous ops (the twin). */
export function runSync<T>(program: Program<T>, ops: OpTable): T {
  let step = program.next()
  while (!step.done) step = program.next(apply(ops, step.value))
  return step.value
}

/** Runs a program to its end on a backend whose ops may be asynchronous; one op at a time, in order. */
export async function runAsync<T>(program: Program<T>, ops: AsyncOpTable): Promise<T> {
  let step = program.next()
  while (!step.done) step = program.next(await apply(ops, step.value))
  return step.value
}

/** Where programs run: the twin (twin-ops.ts `runOnTwin`) or a device's kernels. */
export type ProgramRunner = <T>(program: Program<T>) => Promise<T>
