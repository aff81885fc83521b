// Tokens/s of the shipped small model in one Chromium page, five ways: onnxruntime-web on the wasm EP
// and on the WebGPU EP (the solver's fast path), the TS float64 reference forward by full recompute, and
// the reproducible KV-cached generation on the TS integer twin and on the WGSL kernels (each op reads its
// result back) — as ratios to the wasm number — plus the time from page load to the first token, and
// whether the WGSL forward drew the twin's tokens (it must: same bits; a mismatch fails the run). Here
// WebGPU is SwiftShader (Chromium's CPU implementation), so its numbers say nothing about a real GPU. A
// path that cannot run is recorded with why.
//   node --import ./src/polyfills/register.js bench/solver-speed.ts [--model public/models/tabswarm-tiny]
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { build } from 'vite'
import { launchBrowser } from '../e2e/browser.ts'
import { startAppServer } from '../src/node/cli/app-server.ts'
import { localSwarmConfig } from '../src/node/cli/local-swarm-config.ts'
import type { SpeedRun } from './solver-speed-page/main.ts'
import { reportSolverSpeed, speedOptions } from './solver-speed-report.ts'

const PORT = 18220
const resultsFile = fileURLToPath(new URL('./results/solver-speed.json', import.meta.url))

const { values } = parseArgs({
  options: { model: { type: 'string', default: 'public/models/tabswarm-tiny' } },
})
const modelDir = resolve(values.model)

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
    const options = speedOptions(`${server.url}model/`)
    run = await page.evaluate((o) => globalThis.runSolverSpeed!(o), options)
  } finally {
    await browser.close()
    await server.close()
    await rm(dist, { recursive: true, force: true })
  }

  await reportSolverSpeed(
    run,
    values.model,
    resultsFile,
    'Chromium',
    'WebGPU here is SwiftShader (CPU); ratios are to onnxruntime-web wasm tokens/s (median of the timed runs)',
  )
}

await main()
