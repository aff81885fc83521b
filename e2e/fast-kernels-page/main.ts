/// <reference types="@webgpu/types" />
// A test page (built by e2e/fast-kernels.spec.ts, not part of the app): runs the fast f32 kernels of
// shaders/fast/ on this browser's WebGPU adapter over the check cases and hands the outputs to the test.
import { createFastAttention } from '../../src/compute/kernels/fast/fast-attention.ts'
import { createFastMatmul } from '../../src/compute/kernels/fast/fast-matmul.ts'
import type { FastShaders } from '../../src/compute/kernels/fast/fast-shaders.ts'
import { createFastSoftmax } from '../../src/compute/kernels/fast/fast-softmax.ts'
import { bindOwning, readF32, runResident, type OwningOp } from '../../src/compute/kernels/fast/resident.ts'
import attention from '../../shaders/fast/attention.wgsl?raw'
import matmul from '../../shaders/fast/matmul.wgsl?raw'
import reduce from '../../shaders/fast/reduce.wgsl?raw'
import softmax from '../../shaders/fast/softmax.wgsl?raw'
import { attentionCases, matmulCases, softmaxCases } from './cases.ts'

const shaders: FastShaders = { reduce, matmul, softmax, attention }

export interface FastRun {
  readonly adapter: string
  /** outputs by kernel, one per case, as plain arrays */
  readonly matmul: number[][]
  readonly softmax: number[][]
  readonly attention: number[][]
  /** uncaptured WebGPU errors (validation, compilation) */
  readonly errors: string[]
}

declare global {
  var runFastKernels: (() => Promise<FastRun>) | undefined
}

globalThis.runFastKernels = async () => {
  const adapter = await navigator.gpu?.requestAdapter()
  if (!adapter) throw new Error('no WebGPU adapter in this browser')
  const device = await adapter.requestDevice()
  const errors: string[] = []
  device.addEventListener('uncapturederror', (event) => {
    if (errors.length < 3) errors.push(event.error.message)
  })
  /** Runs a bound op once and reads its output back. */
  const run = async (op: OwningOp, outputs: number) => {
    await runResident(device, op.dispatches)
    const out = await readF32(device, op.output, outputs)
    op.release()
    return Array.from(out)
  }
  const mm = createFastMatmul(device, shaders)
  const sm = createFastSoftmax(device, shaders)
  const at = createFastAttention(device, shaders)
  const result: FastRun = {
    adapter: adapter.info.description || adapter.info.vendor,
    matmul: [],
    softmax: [],
    attention: [],
    errors,
  }
  for (const c of matmulCases()) {
    const n = c.shape.m * c.shape.n
    result.matmul.push(
      await run(
        bindOwning(device, [c.a, c.b], n, (out, a, b) => mm.bind(a, b, out, c.shape)),
        n,
      ),
    )
  }
  for (const c of softmaxCases()) {
    const n = c.rows * c.cols
    result.softmax.push(
      await run(
        bindOwning(device, [c.x], n, (out, x) => sm.bind(x, out, c.rows, c.cols)),
        n,
      ),
    )
  }
  for (const c of attentionCases()) {
    const op = bindOwning(device, [c.q, c.k, c.v], c.q.length, (out, q, k, v) =>
      at.bind(q, k, v, out, c.shape),
    )
    result.attention.push(await run(op, c.q.length))
  }
  return result
}
