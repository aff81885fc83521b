// Tokens/s of the shipped small model in one Chromium page, five ways: onnxruntime-web on the wasm EP
// and on the WebGPU EP (the solver's fast path), the TS float64 reference forward by full recompute, and
// the reproducible KV-cached generation on the TS integer twin and on the WGSL kernels (each op reads its
// result back) — as ratios to the wasm number — plus the time from page load to the first token, and
// whether the WGSL forward drew the twin's tokens (it must: same bits; a mismatch fails the run). Here
// WebGPU is SwiftShader (Chromium's CPU implementation), so its numbers say nothing about a real GPU. A
// path that cannot run is recorded with why.
//   node --import ./src/polyfills/register.js bench/solver-speed.ts [--model public/models/tabswarm-tiny]
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'vite'
import { launchBrowser } from '../e2e/browser.ts'
import { startAppServer } from '../src/cli/app-server.ts'
import { localSwarmConfig } from '../src/cli/local-swarm-config.ts'
import { generateReasoningTask } from '../src/tasks/generate-reasoning-task.ts'
import type { PathResult, SpeedOptions, SpeedRun } from './solver-speed-page/main.ts'
import { WGSL_PATH } from './solver-speed-page/path-names.ts'
import { fmt, percentile, printTable, type Row } from './stats.ts'

const PORT = 18220
/** new tokens per generation: the model's context (128) minus a task prompt leaves room for this */
const NEW_TOKENS = 32
const RUNS = 3
/** a path whose warm-up generation takes longer is timed once */
const SLOW_RUN_MS = 30_000
const resultsFile = fileURLToPath(new URL('./results/solver-speed.json', import.meta.url))

const { values } = parseArgs({
  options: { model: { type: 'string', default: 'public/models/tabswarm-tiny' } },
})
const modelDir = resolve(values.model)

const median = (xs: readonly number[]) => percentile(xs, 50)

async function main(): Promise<void> {
  const dist = await mkdtemp(join(tmpdir(), 'solver-speed-'))
  await build({
    configFile: false,
    root: fileURLToPath(new URL('./solver-speed-page/', import.meta.url)),
    logLevel: 'warn',
    worker: { format: 'es' },
    build: { outDir: dist, emptyOutDir: true, target: 'es2022' },
  })
  await mkdir(join(dist, 'model'), { recursive: true })
  await cp(modelDir, join(dist, 'model'), { recursive: true })
  const server = await startAppServer({ root: dist, port: PORT, swarmConfig: localSwarmConfig([]) })
  const browser = await launchBrowser()
  let run: SpeedRun
  try {
    const page = await browser.newPage()
    page.setDefaultTimeout(0)
    await page.goto(server.url)
    await page.waitForFunction(() => typeof globalThis.runSolverSpeed === 'function')
    const options: SpeedOptions = {
      modelUrl: `${server.url}model/`,
      prompt: generateReasoningTask('arithmetic', 1, 1).prompt,
      newTokens: NEW_TOKENS,
      runs: RUNS,
      slowRunMs: SLOW_RUN_MS,
    }
    run = await page.evaluate((o) => globalThis.runSolverSpeed!(o), options)
  } finally {
    await browser.close()
    await server.close()
    await rm(dist, { recursive: true, force: true })
  }

  const wasm = run.paths.find((p) => p.path === 'onnxruntime-web wasm')
  const base = wasm?.ok ? median(wasm.tokensPerSecond) : Number.NaN
  const rowOf = (p: PathResult): Row =>
    p.ok
      ? {
          metric: `${p.path} tokens/s`,
          value: fmt(median(p.tokensPerSecond)),
          baseline: `${fmt(base)} (wasm)`,
          ratio: fmt(median(p.tokensPerSecond) / base, 3),
        }
      : { metric: `${p.path} tokens/s`, value: 'cannot run', baseline: p.reason.slice(0, 60), ratio: '—' }
  const rows: Row[] = [
    ...run.paths.map(rowOf),
    {
      metric: 'first token after page load (wasm) ms',
      value: fmt(run.firstTokenAfterPageLoadMs ?? Number.NaN, 0),
      baseline: '—',
      ratio: '—',
    },
  ]
  printTable(
    `solver speed: tabswarm-tiny, ${run.promptTokens}-token prompt + ${run.newTokens} greedy tokens, batch 1; ` +
      `WebGPU adapter: ${run.adapter}; cross-origin isolated: ${run.crossOriginIsolated} (wasm threads: ${run.crossOriginIsolated ? 'several' : '1'})`,
    rows,
  )
  const wgsl = run.paths.find((p) => p.path === WGSL_PATH)
  console.log(
    `${WGSL_PATH}: adapter ${wgsl?.ok ? wgsl.adapter : '—'}; sameTokensAsTwin: ${run.sameTokensAsTwin ?? '— (a path did not run)'}`,
  )
  await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true })
  await writeFile(
    resultsFile,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        model: values.model,
        note: 'WebGPU here is SwiftShader (CPU); ratios are to onnxruntime-web wasm tokens/s (median of the timed runs)',
        ...run,
        ratiosToWasm: Object.fromEntries(
          run.paths.filter((p) => p.ok).map((p) => [p.path, median(p.tokensPerSecond) / base]),
        ),
      },
      null,
      2,
    )}\n`,
  )
  console.log(`\nwrote ${resultsFile}`)
  if (run.sameTokensAsTwin === false) {
    console.error(
      `${WGSL_PATH} generated other tokens than the TS integer twin from the same program: a WGSL kernel ` +
        `breaks the twin's bits (run e2e/kernels.spec.ts to find which); both token lists are in ${resultsFile}`,
    )
    process.exitCode = 1
  }
}

await main()
