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
import adam from '../../shaders/adam.wgsl?raw'
import attention from '../../shaders/attention.wgsl?raw'
import clip from '../../shaders/clip.wgsl?raw'
import elementwise from '../../shaders/elementwise.wgsl?raw'
import embedding from '../../shaders/embedding.wgsl?raw'
import fixed from '../../shaders/fixed.wgsl?raw'
import grpo from '../../shaders/grpo.wgsl?raw'
import int64 from '../../shaders/int64.wgsl?raw'
import matmulWgsl from '../../shaders/matmul.wgsl?raw'
import nonlinear from '../../shaders/nonlinear.wgsl?raw'
import probe from './primitives.wgsl?raw'
import rmsnorm from '../../shaders/rmsnorm.wgsl?raw'
import rope from '../../shaders/rope.wgsl?raw'
import sampling from '../../shaders/sampling.wgsl?raw'
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
  adam,
  clip,
  grpo,
  sampling,
  attention,
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
  /** Milliseconds by suite, both workgroup sizes together ('pipelines': building every 1-D kernel). */
  ms: Record<string, number>
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
  const ms: Record<string, number> = {}
  const timed = async <T>(name: string, f: () => Promise<T> | T): Promise<T> => {
    const start = performance.now()
    const result = await f()
    ms[name] = (ms[name] ?? 0) + Math.round(performance.now() - start)
    return result
  }
  for (const wg of KERNEL_WORKGROUPS) {
    const kernels = await timed('pipelines', () => createKernels(device, shaders, probe, wg))
    for (const [name, cases] of Object.entries(suites)) {
      const outs: Bits[] = []
      await timed(name, async () => {
        for (const c of cases) outs.push(bitsOf(await c.gpu(kernels)))
      })
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
    ms,
  }
}

declare global {
  var runKernelParity: (() => Promise<ParityRun>) | undefined
}
globalThis.runKernelParity = runKernelParity
