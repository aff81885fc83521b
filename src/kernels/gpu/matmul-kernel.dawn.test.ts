import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { matmul } from '../ref/matmul.ts'
import { MATMUL_WORKGROUPS, SATURATING_CASE, bitsOf, encodeOperand, matmulCases } from './matmul-cases.ts'

/**
 * WGSL matmul vs the TS twin, byte for byte, under Node Dawn with two workgroup sizes — an opt-in check
 * (`npm run test:dawn`), not part of `npm test`: Dawn 0.6.2 on SwiftShader dies in native code
 * (segfault, abort, hang) even on a trivial dispatch loop, about one process in ten on an idle machine
 * and most of them when the CPUs are busy. The same comparison runs in Chromium in `npm test`
 * (e2e/kernels.spec.ts). Dawn finds a Vulkan driver only through environment variables read when the
 * process starts, so the GPU side runs in a child Node process, with Chromium's SwiftShader where no
 * other driver is configured; a child that dies without printing its result is rerun, and when none
 * survives the check fails with the crash.
 */
const SWIFTSHADER = '/usr/lib/chromium/vk_swiftshader_icd.json'
const cases = matmulCases()

const child = `
  import { readFileSync } from 'node:fs'
  const { nodeGpu } = await import(${JSON.stringify(new URL('./node-gpu.ts', import.meta.url).href)})
  const { createMatmulKernel } = await import(${JSON.stringify(new URL('./matmul-kernel.ts', import.meta.url).href)})
  const input = JSON.parse(readFileSync(0, 'utf8'))
  const decode = (t) => t.rowExps
    ? { shape: t.shape, rowExps: Int32Array.from(t.rowExps), data: Int32Array.from(t.data) }
    : { shape: t.shape, exp: t.exp, data: Int32Array.from(t.data) }
  const adapter = await (await nodeGpu()).requestAdapter()
  if (!adapter) {
    console.log(JSON.stringify({ adapter: null }))
    process.exit(0)
  }
  const device = await adapter.requestDevice()
  const { readShaders } = await import(${JSON.stringify(new URL('./node-shaders.ts', import.meta.url).href)})
  const shaders = readShaders()
  const results = []
  for (const size of input.workgroups) {
    const kernel = createMatmulKernel(device, shaders, size)
    const outs = []
    for (const c of input.cases) {
      const out = await kernel.run(decode(c.a), decode(c.b), c.options)
      outs.push({ exp: out.exp, data: [...out.data] })
    }
    results.push(outs)
  }
  console.log(JSON.stringify({ adapter: adapter.info.vendor || adapter.info.architecture || 'unknown', results }))
  process.exit(0)
`

interface GpuRun {
  readonly adapter: string | null
  readonly results?: { exp: number; data: number[] }[][]
  /** Why no result came back, when every child died. */
  readonly crashed?: string
}

const ATTEMPTS = 5

function runOnGpu(): GpuRun {
  let failure = ''
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const result = runChild()
    if (typeof result !== 'string') return result
    failure = result
  }
  return {
    adapter: null,
    crashed: `Dawn died ${ATTEMPTS} times in native code; last: ${failure.trim().split('\n').at(-1)}`,
  }
}

/** The child's printed result, or its stderr when it died before printing one. */
function runChild(): GpuRun | string {
  const env = { ...process.env }
  if (!env.VK_DRIVER_FILES && !env.VK_ICD_FILENAMES && existsSync(SWIFTSHADER)) {
    env.LD_LIBRARY_PATH = `/usr/lib/chromium${env.LD_LIBRARY_PATH ? `:${env.LD_LIBRARY_PATH}` : ''}`
    env.VK_DRIVER_FILES = SWIFTSHADER
  }
  const input = JSON.stringify({
    workgroups: MATMUL_WORKGROUPS,
    cases: cases.map((c) => ({ a: encodeOperand(c.a), b: encodeOperand(c.b), options: c.options })),
  })
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], {
    env,
    input,
    encoding: 'utf8',
    timeout: 8_000,
  })
  // Dawn may abort while tearing down its threads after the results are printed; the printed JSON
  // line is what counts
  const line = run.stdout.trim().split('\n').at(-1) ?? ''
  return line.startsWith('{')
    ? (JSON.parse(line) as GpuRun)
    : `status ${run.status}, signal ${run.signal}: ${run.stderr.slice(-2000)}`
}

describe('shaders/matmul.wgsl under Node Dawn', () => {
  it('gives the TS twin’s bytes for every case and both workgroup sizes', () => {
    const gpu = runOnGpu()
    if (gpu.crashed) throw new Error(gpu.crashed)
    if (!gpu.adapter) throw new Error('no WebGPU adapter: Dawn found no Vulkan driver')
    const twin = cases.map((c) => bitsOf(matmul(c.a, c.b, c.options)))
    expect(twin[SATURATING_CASE]!.data.some((v) => Math.abs(v) === 2 ** 31 - 1)).toBe(true)
    for (const outs of gpu.results!) expect(outs).toEqual(twin)
  }, 120_000)
})
