// What reproducibility costs: matmul, softmax and attention timed in one Chromium page, three ways —
// the reproducible integer WGSL kernels (shaders/*.wgsl), the fast f32 WGSL kernels (shaders/fast/) and
// the TS twin (src/compute/kernels/ref/) — as ratios repro/fast and twin/repro. Both GPU paths are device-
// resident (inputs uploaded once, R dispatches in one submit, ms per call); the twin runs on the page's
// main thread. Without a GPU, WebGPU is SwiftShader (Chromium's CPU implementation): its ratios say how
// the kernels compare on a CPU, not on a GPU (bench/gpu-kernels.sh runs this on a real one).
//   node --import ./src/polyfills/register.js bench/kernels.ts [--sizes 64,128,256] [--max-size 4096]
//     [--ops matmul,softmax,attention] [--min-ms 50] [--twin-max-size 1024] [--gpu] [--out file.json]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'vite'
import { launchBrowser } from '../e2e/browser.ts'
import { startAppServer } from '../src/node/cli/app-server.ts'
import { localSwarmConfig } from '../src/node/cli/local-swarm-config.ts'
import { onGpu, reportKernels } from './kernels-report.ts'
import { positiveInt } from './stats.ts'
import {
  OPS,
  PROGRESS,
  sizeSweep,
  type BenchOptions,
  type KernelBenchRun,
  type OpName,
} from './kernels-page/protocol.ts'

const PORT = 18240
/**
 * Chromium on a machine with a GPU: WebGPU on the GPU through Vulkan instead of SwiftShader, headless
 * (the flags of Chrome's "WebGPU, WebGL and headless Chrome" model-testing guide, with BASE_ARGS'
 * --enable-unsafe-webgpu). runtime-notes.md has no GPU-verified flags yet, so the bench refuses to call
 * a CPU adapter a GPU rather than trusting these.
 */
const GPU_CHROMIUM_ARGS = ['--use-angle=vulkan', '--enable-features=Vulkan', '--disable-vulkan-surface']

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '64,128,256,512' },
    'max-size': { type: 'string' },
    ops: { type: 'string', default: OPS.join(',') },
    'min-ms': { type: 'string', default: '50' },
    'twin-max-size': { type: 'string', default: '1024' },
    gpu: { type: 'boolean', default: false },
    out: { type: 'string', default: fileURLToPath(new URL('./results/kernels.json', import.meta.url)) },
  },
})

function benchOptions(): BenchOptions {
  const ops = values.ops.split(',').map((op) => {
    if (!(OPS as readonly string[]).includes(op))
      throw new Error(`--ops: unknown op "${op}"; use ${OPS.join(', ')}`)
    return op as OpName
  })
  const sizes = values['max-size']
    ? sizeSweep(positiveInt(values['max-size'], 'max-size'))
    : values.sizes.split(',').map((s) => positiveInt(s, 'sizes'))
  return {
    sizes,
    ops,
    minMs: positiveInt(values['min-ms'], 'min-ms'),
    twinMaxSize: positiveInt(values['twin-max-size'], 'twin-max-size'),
  }
}

async function runPage(options: BenchOptions): Promise<KernelBenchRun> {
  const dist = await mkdtemp(join(tmpdir(), 'kernels-bench-'))
  await build({
    configFile: false,
    root: fileURLToPath(new URL('./kernels-page/', import.meta.url)),
    logLevel: 'warn',
    build: { outDir: dist, emptyOutDir: true, target: 'es2022' },
  })
  const server = await startAppServer({ root: dist, port: PORT, swarmConfig: localSwarmConfig([]) })
  const browser = await launchBrowser({ args: values.gpu ? GPU_CHROMIUM_ARGS : [] })
  try {
    const page = await browser.newPage()
    page.setDefaultTimeout(0)
    // the page's progress lines (one per op and size), not the browser's own noise
    page.on('console', (message) => {
      if (message.text().startsWith(PROGRESS)) console.log(message.text())
    })
    await page.goto(server.url)
    await page.waitForFunction(() => typeof globalThis.runKernelBench === 'function')
    return await page.evaluate((o) => globalThis.runKernelBench!(o), options)
  } finally {
    await browser.close()
    await server.close()
    await rm(dist, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const options = benchOptions()
  const run = await runPage(options)
  await reportKernels(run, options, resolve(values.out), 'Chromium')
  if (values.gpu && !onGpu(run))
    throw new Error(
      `--gpu asked for a GPU but Chromium gave the CPU adapter "${run.adapter}": check the GPU driver and Vulkan (vulkaninfo), then rerun`,
    )
}

await main()
