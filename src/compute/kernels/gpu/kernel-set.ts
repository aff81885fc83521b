// Every 1-D reproducible kernel host built for one device and workgroup size, and the parity case that
// runs the twin and a kernel side by side: what the kernel parity suites (kernel-cases.ts and the
// *-cases.ts files) are made of, apart from them so the case files need not import their aggregate.
import { createAdamKernel, type AdamKernel } from './adam-kernel.ts'
import { createAttentionKernel, type AttentionKernel } from './attention-kernel.ts'
import { createClipKernel, type ClipKernel } from './clip-kernel.ts'
import type { QTensor } from '../ref/tensor.ts'
import type { Shaders, Workgroup1D } from './dispatch.ts'
import { createElementwiseKernel, type ElementwiseKernel } from './elementwise-kernel.ts'
import { createEmbeddingKernel, type EmbeddingKernel } from './embedding-kernel.ts'
import { createGrpoKernel, type GrpoKernel } from './grpo-kernel.ts'
import { createNonlinearKernel, type NonlinearKernel } from './nonlinear-kernel.ts'
import { createPrimitivesProbe, type PrimitivesProbe } from './primitives-probe.ts'
import { createRmsNormKernel, type RmsNormKernel } from './rmsnorm-kernel.ts'
import { createRopeKernel, type RopeKernel } from './rope-kernel.ts'
import { createSamplingKernel, type SamplingKernel } from './sampling-kernel.ts'
import { createSoftmaxKernel, type SoftmaxKernel } from './softmax-kernel.ts'

/** Two schedules of the 1-D kernels: the bits must not depend on them. */
export const KERNEL_WORKGROUPS: readonly Workgroup1D[] = [64, 7]

/** Every 1-D kernel host, built for one device and workgroup size. */
export interface Kernels {
  readonly elementwise: ElementwiseKernel
  readonly embedding: EmbeddingKernel
  readonly nonlinear: NonlinearKernel
  readonly softmax: SoftmaxKernel
  readonly rmsnorm: RmsNormKernel
  readonly rope: RopeKernel
  readonly adam: AdamKernel
  readonly clip: ClipKernel
  readonly grpo: GrpoKernel
  readonly sampling: SamplingKernel
  readonly attention: AttentionKernel
  /** The test-only probe of the shared helpers (e2e/kernels-page/primitives.wgsl). */
  readonly probe: PrimitivesProbe
}

export function createKernels(device: GPUDevice, shaders: Shaders, probe: string, wg: Workgroup1D): Kernels {
  return {
    elementwise: createElementwiseKernel(device, shaders, wg),
    embedding: createEmbeddingKernel(device, shaders, wg),
    nonlinear: createNonlinearKernel(device, shaders, wg),
    softmax: createSoftmaxKernel(device, shaders, wg),
    rmsnorm: createRmsNormKernel(device, shaders, wg),
    rope: createRopeKernel(device, shaders, wg),
    adam: createAdamKernel(device, shaders, wg),
    clip: createClipKernel(device, shaders, wg),
    grpo: createGrpoKernel(device, shaders, wg),
    sampling: createSamplingKernel(device, shaders, wg),
    attention: createAttentionKernel(device, shaders, wg),
    probe: createPrimitivesProbe(device, shaders, probe, wg),
  }
}

export interface ParityCase {
  readonly name: string
  twin(): QTensor
  gpu(k: Kernels): Promise<QTensor>
}

/** Suites by kernel; every case of every suite runs in the page for each workgroup size. */
export type ParitySuites = Readonly<Record<string, readonly ParityCase[]>>
