/// <reference types="@webgpu/types" />
// Every reproducible kernel against the TS twin on one WebGPU implementation: the same run in a page
// (e2e/kernels-page, Chromium) and in Node (kernels.dawn.test.ts, Dawn), so both check the same cases.
import { matmul } from '../ref/matmul.ts'
import type { Shaders } from './dispatch.ts'
import { parityCases, twinBits, type Bits } from './kernel-cases.ts'
import { createKernels, KERNEL_WORKGROUPS } from './kernel-set.ts'
import { bitsOf, MATMUL_WORKGROUPS, matmulCases } from './matmul-cases.ts'
import { createMatmulKernel } from './matmul-kernel.ts'

export interface ParityRun {
  adapter: string
  isFallbackAdapter: boolean
  /** The twin's bits in this runtime, by suite (matmul included). */
  twin: Record<string, Bits[]>
  /** By suite: one list of results per workgroup size. */
  gpu: Record<string, Bits[][]>
  /** Uncaptured WebGPU errors (validation, compilation). */
  errors: string[]
  /** Milliseconds by suite, both workgroup sizes together ('pipelines': building every 1-D kernel). */
  ms: Record<string, number>
}

/** Runs every parity case on `webgpu` (navigator.gpu in a page, Dawn's in Node) at every workgroup size. */
export async function runKernelParity(
  webgpu: GPU | undefined,
  shaders: Shaders,
  probe: string,
): Promise<ParityRun> {
  const adapter = await webgpu?.requestAdapter()
  if (!adapter) throw new Error('no WebGPU adapter in this runtime')
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

/** One parity case whose GPU bits are not the twin's, located for a bug report. */
export interface ParityMismatch {
  readonly suite: string
  /** which of the suite's workgroup sizes (its index in the run) */
  readonly workgroup: number
  readonly index: number
  readonly name: string
  /** the twin's and the GPU's exponents */
  readonly exp: readonly [number, number]
  /** how many of the `of` values differ, from index `firstAt` on */
  readonly differing: number
  readonly of: number
  readonly firstAt: number
  /** up to four values from firstAt: the twin's, then the GPU's */
  readonly twin: readonly number[]
  readonly gpu: readonly number[]
}

/** Every case of `run` whose GPU bits differ from the twin's; `names` gives the cases' names by suite. */
export function parityMismatches(
  run: Pick<ParityRun, 'twin' | 'gpu'>,
  names: Readonly<Record<string, readonly string[]>>,
): ParityMismatch[] {
  const found: ParityMismatch[] = []
  for (const [suite, twin] of Object.entries(run.twin))
    (run.gpu[suite] ?? []).forEach((outs, workgroup) =>
      twin.forEach((want, index) => {
        const got = outs[index] ?? { exp: Number.NaN, data: [] }
        const length = Math.max(want.data.length, got.data.length)
        const differs = (i: number) => want.data[i] !== got.data[i]
        const at = Array.from({ length }, (_, i) => i).filter(differs)
        if (at.length === 0 && want.exp === got.exp) return
        const firstAt = at[0] ?? 0
        found.push({
          suite,
          workgroup,
          index,
          name: names[suite]?.[index] ?? `case ${index}`,
          exp: [want.exp, got.exp],
          differing: at.length,
          of: length,
          firstAt,
          twin: want.data.slice(firstAt, firstAt + 4),
          gpu: got.data.slice(firstAt, firstAt + 4),
        })
      }),
    )
  return found
}
