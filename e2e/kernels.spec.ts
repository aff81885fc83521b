// WGSL == TS twin in a real Chromium tab: every reproducible kernel under shaders/ on the browser's
// WebGPU adapter (SwiftShader here, a GPU elsewhere) gives the bytes of the TS twin, for every case and
// two workgroup sizes, and the twin in the page gives the bytes of the twin in Node.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test } from '@playwright/test'
import { parityCases, twinBits, type Bits } from '../src/compute/kernels/gpu/kernel-cases.ts'
import { bitsOf, matmulCases, SATURATING_CASE } from '../src/compute/kernels/gpu/matmul-cases.ts'
import { matmul } from '../src/compute/kernels/ref/matmul.ts'
import type { ParityRun } from '../src/compute/kernels/gpu/kernel-parity.ts'
import { serveTestPage, type TestPageSite } from './test-page.ts'

const PORT = 19660

const suites = parityCases()
const caseNames: Record<string, string[]> = {
  matmul: matmulCases().map((_, i) => `case ${i}`),
  ...Object.fromEntries(Object.entries(suites).map(([name, cases]) => [name, cases.map((c) => c.name)])),
}
const node: Record<string, Bits[]> = {
  matmul: matmulCases().map((c) => bitsOf(matmul(c.a, c.b, c.options))),
  ...twinBits(suites),
}

let site: TestPageSite
let run: ParityRun

test.beforeAll(async () => {
  // SwiftShader compiles ~30 pipelines on the CPU first (about 100 s on a busy 2-core machine)
  test.setTimeout(300_000)
  site = await serveTestPage(new URL('./kernels-page/', import.meta.url), PORT)
  const page = await site.browser.newPage()
  await page.goto(site.url)
  await page.waitForFunction(() => typeof globalThis.runKernelParity === 'function')
  run = await page.evaluate(() => globalThis.runKernelParity!())
  console.log(
    `adapter ${run.adapter} (fallback: ${run.isFallbackAdapter}), ms by suite ${JSON.stringify(run.ms)}`,
  )
})

test.afterAll(async () => {
  await site?.close()
})

/** Names of the cases whose bits differ (empty when all agree): a readable failure. */
function differing(suite: string, got: Bits[], want: Bits[]): string[] {
  return want.flatMap((w, i) => {
    const g = got[i]
    if (g && g.exp === w.exp && g.data.length === w.data.length && g.data.every((v, j) => v === w.data[j]))
      return []
    return [
      `${caseNames[suite]![i]}: got ${JSON.stringify(g)?.slice(0, 300)}, want ${JSON.stringify(w).slice(0, 300)}`,
    ]
  })
}

test('no WebGPU validation or compilation errors', () => {
  expect(run.errors).toEqual([])
})

test('matmul saturates in its saturation case', () => {
  expect(node.matmul![SATURATING_CASE]!.data.some((v) => Math.abs(v) === 2 ** 31 - 1)).toBe(true)
})

for (const suite of Object.keys(node)) {
  test(`shaders/${suite} gives the TS twin’s bytes in Chromium, whatever the workgroup size (${node[suite]!.length} cases)`, () => {
    expect(differing(suite, run.twin[suite]!, node[suite]!)).toEqual([]) // the twin's bits: page == Node
    expect(run.gpu[suite]).toHaveLength(2)
    for (const outs of run.gpu[suite]!) expect(differing(suite, outs, node[suite]!)).toEqual([])
  })
}
