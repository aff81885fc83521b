// The GPU checks in Node through Dawn (the `webgpu` package) instead of Chromium, for a machine with a
// GPU and Node but no browser: the solver-speed bench, every reproducible kernel's parity with the TS
// twin (the cases of e2e/kernels.spec.ts), the 50-step training proof on the WGSL kernels against the
// twin's weights hashes (e2e/training-proof.spec.ts), then the kernels bench. It runs the pages' own code:
// navigator.gpu is Dawn's, fetch reads file: URLs, and the results go through the same reports as the
// Chromium runs. The pages inline their shaders with import.meta.glob, so this file runs as the Vite
// build that bench/gpu-node/pack.ts makes (.gpu-pack/bench.mjs), not through tsx.
//   node .gpu-pack/bench.mjs [--model DIR] [--out-dir DIR] [--max-size 4096] [--twin-max-size 512] [--gpu]
// A kernel or a training step whose bits differ from the twin's fails the run, and so does a CPU
// adapter with --gpu, after every result is written.
import { readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { BUNDLED_SHADERS } from '../../src/compute/kernels/gpu/bundled-shaders.ts'
import { parityCases } from '../../src/compute/kernels/gpu/kernel-cases.ts'
import { parityMismatches, runKernelParity } from '../../src/compute/kernels/gpu/kernel-parity.ts'
import { matmulCases } from '../../src/compute/kernels/gpu/matmul-cases.ts'
import { createReproducibleRunner } from '../../src/compute/kernels/reproducible-runner.ts'
import { runSync } from '../../src/compute/model/program.ts'
import { trainingProofProgram } from '../../src/compute/model/training-proof.ts'
import { TWIN_OPS } from '../../src/compute/model/twin-ops.ts'
import { nodeGpu } from '../../src/compute/kernels/gpu/node-gpu.ts'
import probe from '../../e2e/kernels-page/primitives.wgsl?raw'
import '../kernels-page/main.ts'
import { OPS, sizeSweep } from '../kernels-page/protocol.ts'
import { onGpu, reportKernels } from '../kernels-report.ts'
import '../solver-speed-page/main.ts'
import { reportSolverSpeed, speedOptions } from '../solver-speed-report.ts'
import { fmt, positiveInt, printTable, writeResults } from '../stats.ts'

const RUNTIME = 'Node + Dawn'

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'public/models/tabswarm-tiny' },
    'out-dir': { type: 'string', default: 'bench/results' },
    'max-size': { type: 'string', default: '4096' },
    'twin-max-size': { type: 'string', default: '512' },
    'min-ms': { type: 'string', default: '50' },
    gpu: { type: 'boolean', default: false },
  },
})

/** Node's fetch has no file: URLs; the solver page fetches its model folder by URL. */
function fetchFileUrls(): void {
  const networkFetch = globalThis.fetch
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!url.startsWith('file:')) return networkFetch(input, init)
    try {
      return new Response(await readFile(new URL(url)))
    } catch {
      return new Response(null, { status: 404 })
    }
  }
}

/** Every parity case against the twin; returns how many differ (each is printed and in the file). */
async function checkParity(gpu: GPU, out: string): Promise<number> {
  const run = await runKernelParity(gpu, BUNDLED_SHADERS, probe)
  const names = {
    matmul: matmulCases().map((c) => `${c.a.shape.join('×')} · ${c.b.shape.join('×')}`),
    ...Object.fromEntries(
      Object.entries(parityCases()).map(([suite, cases]) => [suite, cases.map((c) => c.name)]),
    ),
  }
  const mismatches = parityMismatches(run, names)
  const cases = Object.values(run.twin).reduce((n, suite) => n + suite.length, 0)
  printTable(
    `kernel parity (${RUNTIME}): ${cases} cases per workgroup size, ${mismatches.length} differ from the twin; adapter ${run.adapter}`,
    mismatches.map((m) => ({
      metric: `${m.suite} #${m.index} ${m.name} (workgroup ${m.workgroup})`,
      value: `${m.differing}/${m.of} differ from ${m.firstAt}`,
      baseline: `twin ${m.twin.join(' ')} · gpu ${m.gpu.join(' ')}`,
      ratio: m.exp[0] === m.exp[1] ? '—' : `exp ${m.exp[0]}/${m.exp[1]}`,
    })),
  )
  if (run.errors.length > 0) console.log(`WebGPU errors: ${run.errors.join(' | ')}`)
  const ms = Object.entries(run.ms).map(([suite, t]) => `${suite} ${fmt(t, 0)}`)
  console.log(`ms by suite: ${ms.join(', ')}`)
  await writeResults(out, {
    runtime: RUNTIME,
    adapter: run.adapter,
    cases,
    mismatches,
    errors: run.errors,
    ms: run.ms,
  })
  return mismatches.length + run.errors.length
}

/**
 * The training proof on the WGSL kernels and on the twin: returns the first step whose weights hash
 * differs (0 when all 50 agree), after printing both runs' times and losses and writing `out`.
 */
async function checkTrainingProof(gpu: GPU, out: string): Promise<number> {
  const runner = await createReproducibleRunner(gpu, BUNDLED_SHADERS)
  if (runner.backend !== 'webgpu') throw new Error(`no WebGPU device for the training proof: ${runner.note}`)
  let started = performance.now()
  const wgsl = await runner.run(trainingProofProgram())
  const gpuMs = performance.now() - started
  started = performance.now()
  const onTwin = runSync(trainingProofProgram(), TWIN_OPS)
  const twinMs = performance.now() - started
  const firstDiff = onTwin.stepHashes.findIndex((hash, i) => wgsl.stepHashes[i] !== hash) + 1
  console.log(
    `\ntraining proof (${RUNTIME}): ${onTwin.stepHashes.length} steps, WGSL ${fmt(gpuMs / 1000)} s vs twin ` +
      `${fmt(twinMs / 1000)} s; eval loss ${wgsl.evalLoss.first.toFixed(4)} → ${wgsl.evalLoss.last.toFixed(4)}; ` +
      (firstDiff === 0 ? 'every step’s weights hash is the twin’s' : `weights differ from step ${firstDiff}`),
  )
  await writeResults(out, {
    runtime: RUNTIME,
    adapter: runner.adapter,
    gpuMs,
    twinMs,
    firstDiff,
    onGpu: wgsl,
    onTwin,
  })
  return firstDiff
}

async function main(): Promise<void> {
  const gpu = await nodeGpu()
  Object.defineProperty(globalThis, 'navigator', {
    value: { gpu, hardwareConcurrency: availableParallelism(), userAgent: `Node ${process.version}` },
    configurable: true,
  })
  fetchFileUrls()
  const outDir = resolve(values['out-dir'])
  const modelUrl = `${pathToFileURL(resolve(values.model)).href}/`

  console.log(`solver speed: ${values.model} …`)
  const speed = await globalThis.runSolverSpeed!(speedOptions(modelUrl))
  await reportSolverSpeed(
    speed,
    values.model,
    join(outDir, 'solver-speed-node.json'),
    RUNTIME,
    'ratios are to onnxruntime-web wasm tokens/s (median of the timed runs); "page load" is the Node process start',
  )

  const broken = await checkParity(gpu, join(outDir, 'kernel-parity-node.json'))
  const proofDiff = await checkTrainingProof(gpu, join(outDir, 'training-proof-node.json'))

  const options = {
    sizes: sizeSweep(positiveInt(values['max-size'], 'max-size')),
    ops: [...OPS],
    minMs: positiveInt(values['min-ms'], 'min-ms'),
    twinMaxSize: positiveInt(values['twin-max-size'], 'twin-max-size'),
  }
  console.log(`kernels: sizes ${options.sizes.join(', ')} …`)
  const kernels = await globalThis.runKernelBench!(options)
  await reportKernels(kernels, options, join(outDir, 'kernels-node.json'), RUNTIME)
  if (values.gpu && !onGpu(kernels))
    throw new Error(`--gpu asked for a GPU but Dawn gave the CPU adapter "${kernels.adapter}"`)
  if (proofDiff > 0)
    throw new Error(`the training proof on ${kernels.adapter} left the twin's weights at step ${proofDiff}`)
  if (broken > 0)
    throw new Error(
      `${broken} kernel parity cases differ from the twin on ${kernels.adapter}: see kernel-parity-node.json`,
    )
}

// Dawn's threads keep the process alive after the work: exit explicitly, with the outcome.
main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err))
    process.exit(1)
  },
)
