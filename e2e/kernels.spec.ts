// WGSL == TS twin in a real Chromium tab: shaders/matmul.wgsl on the browser's WebGPU adapter
// (SwiftShader here, a GPU elsewhere) gives the bytes of the TS twin, for every case and two workgroup
// sizes, and the twin in the page gives the bytes of the twin in Node.
import '../src/polyfills/promise-with-resolvers.ts'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Browser } from '@playwright/test'
import { build } from 'vite'
import { startAppServer, type AppServer } from '../src/cli/app-server.ts'
import { localSwarmConfig } from '../src/cli/local-swarm-config.ts'
import { bitsOf, matmulCases, SATURATING_CASE } from '../src/kernels/gpu/matmul-cases.ts'
import { matmul } from '../src/kernels/ref/matmul.ts'
import { launchBrowser } from './browser.ts'
import type { ParityRun } from './kernels-page/main.ts'

const PORT = 19660

let dist: string
let server: AppServer
let browser: Browser

test.beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'kernels-page-'))
  await build({
    configFile: false,
    root: fileURLToPath(new URL('./kernels-page/', import.meta.url)),
    logLevel: 'warn',
    build: { outDir: dist, emptyOutDir: true },
  })
  server = await startAppServer({ root: dist, port: PORT, swarmConfig: localSwarmConfig([]) })
  browser = await launchBrowser()
})

test.afterAll(async () => {
  await browser?.close()
  await server?.close()
  await rm(dist, { recursive: true, force: true })
})

test('shaders/matmul.wgsl gives the TS twin’s bytes in Chromium, whatever the workgroup size', async () => {
  const page = await browser.newPage()
  await page.goto(server.url)
  await page.waitForFunction(() => typeof globalThis.runMatmulParity === 'function')
  const run: ParityRun = await page.evaluate(() => globalThis.runMatmulParity!())
  console.log(
    `adapter ${run.adapter} (fallback: ${run.isFallbackAdapter}), ${run.gpu.length} workgroup sizes`,
  )

  const node = matmulCases().map((c) => bitsOf(matmul(c.a, c.b, c.options)))
  expect(run.twin).toEqual(node) // the twin's bits are the same in the page and in Node
  expect(node[SATURATING_CASE]!.data.some((v) => Math.abs(v) === 2 ** 31 - 1)).toBe(true)
  expect(run.gpu).toHaveLength(2)
  for (const outs of run.gpu) expect(outs).toEqual(node)
})
