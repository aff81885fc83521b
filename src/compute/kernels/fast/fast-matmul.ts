/// <reference types="@webgpu/types" />
import { createPipeline } from '../gpu/dispatch.ts'
import type { FastShaders } from './fast-shaders.ts'
import { bindOp, type ResidentOp } from './resident.ts'

export interface FastMatmulShape {
  readonly m: number
  readonly n: number
  readonly k: number
  /** B stored [N, K] and used as Bᵀ (torch.nn.Linear's weight); otherwise B is [K, N]. */
  readonly transB: boolean
}

export interface FastMatmul {
  /** C[M, N] = A[M, K]·op(B) on f32 buffers already on the device. */
  bind(a: GPUBuffer, b: GPUBuffer, c: GPUBuffer, shape: FastMatmulShape): ResidentOp
}

/** Side of the C tile one workgroup of shaders/fast/matmul.wgsl computes. */
const TILE = 64

/** Host for shaders/fast/matmul.wgsl: the tiled f32 matmul the reproducible one is measured against. */
export function createFastMatmul(device: GPUDevice, shaders: FastShaders): FastMatmul {
  const pipeline = createPipeline(device, shaders.matmul, {})
  return {
    bind(a, b, c, { m, n, k, transB }) {
      const groups: [number, number] = [Math.ceil(n / TILE), Math.ceil(m / TILE)]
      return bindOp(device, pipeline, [m, n, k, Number(transB)], [a, b, c], groups)
    },
  }
}
