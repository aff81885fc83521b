/// <reference types="@webgpu/types" />
import { createPipeline, grid1D } from '../gpu/dispatch.ts'
import type { FastShaders } from './fast-shaders.ts'
import { bindOp, type ResidentOp } from './resident.ts'

export interface FastSoftmax {
  /** Row softmax of x [rows, cols] into out, f32 buffers already on the device. */
  bind(x: GPUBuffer, out: GPUBuffer, rows: number, cols: number): ResidentOp
}

/**
 * Workgroup sizes: below 32 a reduction is not worth a workgroup; above 64 the tree's extra barriers
 * cost more than the extra invocations give (SwiftShader: 7× slower at 512 columns with 128 than with
 * 64), and a model's softmax has rows enough to fill a GPU with 64 per row.
 */
const [MIN_WG, MAX_WG] = [32, 64]
/** Columns each invocation reads at least, until the row is long enough to fill MAX_WG. */
const COLS_PER_INVOCATION = 4

/** Invocations per row: the smallest power of two giving each about COLS_PER_INVOCATION columns. */
function softmaxWorkgroup(cols: number): number {
  const want = 2 ** Math.ceil(Math.log2(Math.max(1, cols / COLS_PER_INVOCATION)))
  return Math.min(MAX_WG, Math.max(MIN_WG, want))
}

/** Host for shaders/fast/softmax.wgsl (after shaders/fast/reduce.wgsl): one workgroup per row. */
export function createFastSoftmax(device: GPUDevice, shaders: FastShaders): FastSoftmax {
  const pipelines = new Map<number, GPUComputePipeline>()
  const pipeline = (wg: number) => {
    const cached = pipelines.get(wg)
    if (cached) return cached
    const created = createPipeline(device, `${shaders.reduce}\n${shaders.softmax}`, { WG: wg })
    pipelines.set(wg, created)
    return created
  }
  return {
    bind: (x, out, rows, cols) =>
      bindOp(device, pipeline(softmaxWorkgroup(cols)), [rows, cols], [x, out], grid1D(rows, 1)),
  }
}
