// A test page (built by e2e/kernels.spec.ts, not part of the app): runs shaders/matmul.wgsl on this
// browser's WebGPU adapter and the TS twin on the same inputs, and hands both results to the test.
import {
  bitsOf,
  MATMUL_WORKGROUPS,
  matmulCases,
  type MatmulBits,
} from '../../src/kernels/gpu/matmul-cases.ts'
import { createMatmulKernel } from '../../src/kernels/gpu/matmul-kernel.ts'
import { matmul } from '../../src/kernels/ref/matmul.ts'
import wgsl from '../../shaders/matmul.wgsl?raw'

export interface ParityRun {
  adapter: string
  isFallbackAdapter: boolean
  twin: MatmulBits[]
  /** one list of results per workgroup size */
  gpu: MatmulBits[][]
}

async function runMatmulParity(): Promise<ParityRun> {
  const adapter = await navigator.gpu?.requestAdapter()
  if (!adapter) throw new Error('no WebGPU adapter in this browser')
  const device = await adapter.requestDevice()
  const cases = matmulCases()
  const gpu: MatmulBits[][] = []
  for (const size of MATMUL_WORKGROUPS) {
    const kernel = createMatmulKernel(device, wgsl, size)
    const outs: MatmulBits[] = []
    for (const c of cases) outs.push(bitsOf(await kernel.run(c.a, c.b, c.options)))
    gpu.push(outs)
  }
  device.destroy()
  return {
    adapter: adapter.info.vendor || adapter.info.architecture || 'unknown',
    isFallbackAdapter:
      (adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean }).isFallbackAdapter ?? false,
    twin: cases.map((c) => bitsOf(matmul(c.a, c.b, c.options))),
    gpu,
  }
}

declare global {
  var runMatmulParity: (() => Promise<ParityRun>) | undefined
}
globalThis.runMatmulParity = runMatmulParity
