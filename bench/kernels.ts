// What reproducibility costs: matmul, softmax and attention timed in one Chromium page, three ways —
// the reproducible integer WGSL kernels (shaders/*.wgsl), the fast f32 WGSL kernels (shaders/fast/) and
// the TS twin (src/kernels/ref/) — as ratios repro/fast and twin/repro. Both GPU paths are device-
// resident (inputs uploaded once, R dispatches in one submit, ms per call); the twin runs on the page's
// main thread. Without a GPU, WebGPU is SwiftShader (Chromium's CPU implementation): its ratios say how
// the kernels compare on a CPU, not on a GPU (bench/gpu-kernels.sh runs this on a real one).
//   node --import ./src/polyfills/register.js bench/kernels.ts [--sizes 64,128,256] [--max-size 4096]
//     [--ops matmul,softmax,attention] [--min-ms 50] [--twin-max-size 1024] [--gpu] [--out file.json]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'vite'
import { launchBrowser } from '../e2e/browser.ts'
import { startAppServer } from '../src/cli/app-server.ts'
import { localSwarmConfig } from '../src/cli/local-swarm-config.ts'
import {
  OPS,
  PROGRESS,
  type BenchOptions,
  type KernelBenchRun,
  type OpName,
  type OpResult,
  type Timing,
} from './kernels-page/protocol.ts'
import { fmt, printTable, type Row } from './stats.ts'

const PORT = 18240
/** --max-size sweeps the powers of two from here */
const MIN_SIZE = 64
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

function positiveInt(text: string, flag: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${flag} takes a positive integer, got "${text}"`)
  return n
}

function sweep(max: number): number[] {
  const sizes: number[] = []
  for (let n = MIN_SIZE; n <= max; n *= 2) sizes.push(n)
  return sizes
}

function benchOptions(): BenchOptions {
  const ops = values.ops.split(',').map((op) => {
    if (!(OPS as readonly string[]).includes(op))
      throw new Error(`--ops: unknown op "${op}"; use ${OPS.join(', ')}`)
    return op as OpName
  })
  const sizes = values['max-size']
    ? sweep(positiveInt(values['max-size'], 'max-size'))
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

const msOf = (t: Timing) => ('ms' in t ? t.ms : Number.NaN)
const cell = (t: Timing) => ('ms' in t ? `${fmt(t.ms, 3)} (R=${t.repeats})` : 'skipped')

function rowsOf(r: OpResult): Row[] {
  const [repro, fast, twin] = [msOf(r.repro), msOf(r.fast), msOf(r.twin)]
  const name = `${r.op} ${r.size}`
  return [
    {
      metric: `${name} repro WGSL ms`,
      value: cell(r.repro),
      baseline: `${cell(r.fast)} fast`,
      ratio: fmt(repro / fast, 2),
    },
    {
      metric: `${name} TS twin ms`,
      value: cell(r.twin),
      baseline: `${fmt(repro, 3)} repro`,
      ratio: fmt(twin / repro, 2),
    },
  ]
}

async function main(): Promise<void> {
  const options = benchOptions()
  const run = await runPage(options)
  const onGpu = !run.isFallbackAdapter && !/swiftshader/i.test(run.adapter)
  printTable(
    `kernels: ms per call, device-resident GPU paths (R dispatches per submit); ratio = repro/fast, then twin/repro. ` +
      `WebGPU adapter: ${run.adapter}${onGpu ? '' : ' (CPU: SwiftShader)'}`,
    run.results.flatMap(rowsOf),
  )
  if (run.errors.length > 0) console.log(`\nWebGPU errors: ${run.errors.join(' | ')}`)
  const out = resolve(values.out)
  await mkdir(dirname(out), { recursive: true })
  await writeFile(
    out,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        note:
          'ms per call; GPU paths device-resident: inputs uploaded once, the op’s dispatches repeated R times in ' +
          'one command buffer and submit, timed to onSubmittedWorkDone, nothing subtracted; the reproducible ' +
          'ops replay the dispatches of one host call (its uploads, read-backs and host steps excluded). ' +
          'TS twin on the page’s main thread.',
        options,
        ...run,
        ratios: run.results.map((r) => ({
          op: r.op,
          size: r.size,
          reproOverFast: msOf(r.repro) / msOf(r.fast),
          twinOverRepro: msOf(r.twin) / msOf(r.repro),
        })),
      },
      null,
      2,
    )}\n`,
  )
  console.log(`\nwrote ${out}`)
  if (values.gpu && !onGpu)
    throw new Error(
      `--gpu asked for a GPU but Chromium gave the CPU adapter "${run.adapter}": check the GPU driver and Vulkan (vulkaninfo), then rerun`,
    )
}

await main()
