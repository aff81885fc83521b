/// <reference types="@webgpu/types" />
import type { AsyncOpTable } from '../../model/program.ts'
import { qtensor } from '../ref/tensor.ts'
import { createAdamKernel } from './adam-kernel.ts'
import { createAttentionKernel } from './attention-kernel.ts'
import { createClipKernel } from './clip-kernel.ts'
import type { Shaders, Workgroup1D } from './dispatch.ts'
import { createElementwiseKernel } from './elementwise-kernel.ts'
import { createEmbeddingKernel } from './embedding-kernel.ts'
import { createGrpoKernel } from './grpo-kernel.ts'
import { createMatmulKernel, type WorkgroupSize } from './matmul-kernel.ts'
import { createNonlinearKernel } from './nonlinear-kernel.ts'
import { createRmsNormKernel } from './rmsnorm-kernel.ts'
import { createRopeKernel } from './rope-kernel.ts'
import { createSamplingKernel } from './sampling-kernel.ts'
import { createSoftmaxKernel } from './softmax-kernel.ts'

export interface GpuOpsOptions {
  /** Workgroup size of the 1-D kernels (schedule only: the bits do not depend on it). */
  readonly workgroup?: Workgroup1D
  readonly matmulWorkgroup?: WorkgroupSize
}

/**
 * Every op of a model program on the reproducible WGSL kernels of one device: the twin's contract
 * and bits (e2e/kernels.spec.ts checks each kernel against the twin). Each op uploads its inputs and
 * reads its outputs back: tensors live on the host between ops, which keeps programs backend-neutral
 * (and costs a round trip per op: fine for checking work, not the fast path).
 */
export function createGpuOps(device: GPUDevice, shaders: Shaders, options: GpuOpsOptions = {}): AsyncOpTable {
  const wg = options.workgroup ?? 64
  // each kernel compiles on its first use: a training program never pays for the sampler, a
  // generation never for Adam (SwiftShader compiles a pipeline in seconds on a CPU)
  const lazy = <T>(make: () => T) => {
    let made: T | undefined
    return () => (made ??= make())
  }
  const elementwise = lazy(() => createElementwiseKernel(device, shaders, wg))
  const embedding = lazy(() => createEmbeddingKernel(device, shaders, wg))
  const nonlinear = lazy(() => createNonlinearKernel(device, shaders, wg))
  const softmax = lazy(() => createSoftmaxKernel(device, shaders, wg))
  const rmsnorm = lazy(() => createRmsNormKernel(device, shaders, wg))
  const rope = lazy(() => createRopeKernel(device, shaders, wg))
  const adam = lazy(() => createAdamKernel(device, shaders, wg))
  const clip = lazy(() => createClipKernel(device, shaders, wg))
  const grpo = lazy(() => createGrpoKernel(device, shaders, wg))
  const sampling = lazy(() => createSamplingKernel(device, shaders, wg))
  const attention = lazy(() => createAttentionKernel(device, shaders, wg))
  const matmul = lazy(() => createMatmulKernel(device, shaders, options.matmulWorkgroup ?? { x: 8, y: 8 }))
  return {
    embeddingGather: (table, ids) => embedding().gather(table, ids),
    embeddingScatterAdd: (dOut, ids, vocab) => embedding().scatterAdd(dOut, ids, vocab),
    requantize: (a, outExp) => elementwise().requantize(a, outExp),
    add: (a, b, outExp) => elementwise().add(a, b, outExp),
    narrow16: (a) => elementwise().narrow16(a),
    matmul: (a, b, opts) => matmul().run(a, b, opts),
    rmsNorm: (x, w, eps, outExp) => rmsnorm().forward(x, w, eps, outExp),
    rmsNormBackward: (x, w, eps, dy) => rmsnorm().backward(x, w, eps, dy),
    rope: (x, positions, table, inverse) => rope().rope(x, positions, table, inverse),
    attention: (q, k, v, shape) => attention().forward(q, k, v, shape),
    attentionBackward: (q, k, v, dOut, shape) => attention().backward(q, k, v, dOut, shape),
    swiglu: (gate, up, outExp) => nonlinear().swiglu(gate, up, outExp),
    swigluBackward: (gate, up, dy) => nonlinear().swigluBackward(gate, up, dy),
    crossEntropy: (logits, targets) => softmax().crossEntropy(logits, targets),
    crossEntropyBackward: (logits, targets) => softmax().crossEntropyBackward(logits, targets),
    tokenLogProbs: (logits, targets, outExp) => softmax().tokenLogProbs(logits, targets, outExp),
    tokenLogProbBackward: (logits, targets, d) => softmax().tokenLogProbBackward(logits, targets, d),
    grpoLoss: (input) => grpo().loss(input),
    clipGradNorm: (grads, maxNorm) => clip().clipGradNorm(grads, maxNorm),
    adamStep: (w, g, state, config) => adam().step(w, g, state, config),
    // the twin samples one row [V]; the kernel samples rows [R, V], one draw key per row
    sampleToken: async (logits, params, key) =>
      (await sampling().sample(qtensor([1, logits.data.length], logits.exp, logits.data), params, [key]))[0]!,
  }
}
