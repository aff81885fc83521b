import { adamStep } from '../kernels/ref/adam.ts'
import { attention, attentionBackward } from '../kernels/ref/attention.ts'
import { clipGradNorm } from '../kernels/ref/clip.ts'
import { crossEntropy, crossEntropyBackward } from '../kernels/ref/cross-entropy.ts'
import { add, requantize } from '../kernels/ref/elementwise.ts'
import { embeddingGather, embeddingScatterAdd } from '../kernels/ref/embedding.ts'
import { grpoLoss } from '../kernels/ref/grpo.ts'
import { tokenLogProbBackward, tokenLogProbs } from '../kernels/ref/logprob.ts'
import { matmul } from '../kernels/ref/matmul.ts'
import { narrow16 } from '../kernels/ref/narrow.ts'
import { rmsNorm, rmsNormBackward } from '../kernels/ref/rmsnorm.ts'
import { rope } from '../kernels/ref/rope.ts'
import { sampleToken } from '../kernels/ref/sampling.ts'
import { swiglu, swigluBackward } from '../kernels/ref/silu.ts'
import type { QTensor } from '../kernels/ref/tensor.ts'
import { runSync, type OpTable, type Program, type ProgramRunner } from './program.ts'

/**
 * narrow16 remembered per input tensor: generation narrows the same weights for every token, and the
 * narrowing (a pass of roundings over every weight) cost as much as the matmuls themselves. Sound
 * because tensors are values: no op writes its inputs, and nothing writes a tensor after handing it
 * to an op (a tensor is filled when it is made).
 */
const narrowed = new WeakMap<QTensor, QTensor>()
function rememberedNarrow16(t: QTensor): QTensor {
  let out = narrowed.get(t)
  if (!out) narrowed.set(t, (out = narrow16(t)))
  return out
}

/** The reference backend: every op of a model program on the TS twin (synchronous, any runtime). */
export const TWIN_OPS: OpTable = {
  embeddingGather,
  embeddingScatterAdd,
  requantize,
  add,
  narrow16: rememberedNarrow16,
  matmul,
  rmsNorm,
  rmsNormBackward,
  rope,
  attention,
  attentionBackward,
  swiglu,
  swigluBackward,
  crossEntropy,
  crossEntropyBackward,
  tokenLogProbs,
  tokenLogProbBackward,
  grpoLoss,
  clipGradNorm,
  adamStep,
  sampleToken,
}

/** Runs programs on the TS twin: what every runtime can do, with or without a GPU. */
export const runOnTwin: ProgramRunner = (program) => Promise.resolve(runSync(program, TWIN_OPS))

/** A program made into a plain function on the TS twin: `forward = onTwin(forwardProgram)`. */
export function onTwin<A extends unknown[], T>(program: (...args: A) => Program<T>): (...args: A) => T {
  return (...args) => runSync(program(...args), TWIN_OPS)
}
