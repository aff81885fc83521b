// A test page (built by e2e/kernels.spec.ts, not part of the app): runs the reproducible WGSL kernels
// on this browser's WebGPU adapter and the TS twin on the same inputs, and hands both results to the test.
import type { Shaders } from '../../src/kernels/gpu/dispatch.ts'
import {
  createKernels,
  KERNEL_WORKGROUPS,
  parityCases,
  twinBits,
  type Bits,
} from '../../src/kernels/gpu/kernel-cases.ts'
import { bitsOf, MATMUL_WORKGROUPS, matmulCases } from '../../src/kernels/gpu/matmul-cases.ts'
import { createMatmulKernel } from '../../src/kernels/gpu/matmul-kernel.ts'
import { matmul } from '../../src/kernels/ref/matmul.ts'
import elementwise from '../../shaders/elementwise.wgsl?raw'
import embedding from '../../shaders/embedding.wgsl?raw'
import fixed from '../../shaders/fixed.wgsl?raw'
import int64 from '../../shaders/int64.wgsl?raw'
import matmulWgsl from '../../shaders/matmul.wgsl?raw'
import nonlinear from '../../shaders/nonlinear.wgsl?raw'
import probe from './primitives.wgsl?raw'
import rmsnorm from '../../shaders/rmsnorm.wgsl?raw'
import rope from '../../shaders/rope.wgsl?raw'
import softmax from '../../shaders/softmax.wgsl?raw'
import wide from '../../shaders/wide.wgsl?raw'

const shaders: Shaders = {
  int64,
  wide,
  fixed,
  matmul: matmulWgsl,
  elementwise,
  embedding,
  nonlinear,
  softmax,
  rmsnorm,
  rope,
}

export interface ParityRun {
  adapter: string
  isFallbackAdapter: boolean
  /** The twin's bits in this page, by suite (matmul included). */
  twin: Record<string, Bits[]>
  /** By suite: one list of results per workgroup size. */
  gpu: Record<string, Bits[][]>
  /** Uncaptured WebGPU errors (validation, compilation). */
  errors: string[]
}

async function runKernelParity(): Promise<ParityRun> {
  const adapter = await navigator.gpu?.requestAdapter()
  if (!adapter) throw new Error('no WebGPU adapter in this browser')
  const device = await adapter.requestDevice()
  const errors: string[] = []
  device.addEventListener('uncapturederror', (event) => {
    if (errors.length < 3) errors.push(event.error.message)
  })

  const mm = matmulCases()
  const gpu: Record<string, Bits[][]> = { matmul: [] }
  for (const size of MATMUL_WORKGROUPS) {
    const kernel = createMatmulKernel(device, shaders, size)
    const outs: Bits[] = []
    for (const c of mm) outs.push(bitsOf(await kernel.run(c.a, c.b, c.options)))
    gpu.matmul!.push(outs)
  }
  const suites = parityCases()
  for (const wg of KERNEL_WORKGROUPS) {
    const kernels = createKernels(device, shaders, probe, wg)
    for (const [name, cases] of Object.entries(suites)) {
      const outs: Bits[] = []
      for (const c of cases) outs.push(bitsOf(await c.gpu(kernels)))
      ;(gpu[name] ??= []).push(outs)
    }
  }
  device.destroy()
  return {
    adapter: adapter.info.vendor || adapter.info.architecture || 'unknown',
    isFallbackAdapter:
      (adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean }).isFallbackAdapter ?? false,
    twin: { matmul: mm.map((c) => bitsOf(matmul(c.a, c.b, c.options))), ...twinBits(suites) },
    gpu,
    errors,
  }
}

declare global {
  var runKernelParity: (() => Promise<ParityRun>) | undefined
}
globalThis.runKernelParity = runKernelParity
