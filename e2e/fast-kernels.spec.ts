// The fast f32 kernels (shaders/fast/, the yardstick the reproducible kernels are measured against) in
// a real Chromium tab: each output within 1e-3 of the largest reference value of a float64 reference,
// over shapes that cross tile, chunk and workgroup edges.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test } from '@playwright/test'
import { maxRelToPeak, softmaxRowF64 } from '../src/compute/kernels/ref/f64-reference.ts'
import { attentionForward } from '../src/compute/model/f64/causal-attention.ts'
import { matmulNT, transpose } from '../src/compute/model/f64/dense.ts'
import { attentionCases, matmulCases, softmaxCases } from './fast-kernels-page/cases.ts'
import type { FastRun } from './fast-kernels-page/main.ts'
import { serveTestPage, type TestPageSite } from './test-page.ts'

const PORT = 19790
/** f32 kernels against float64: the brief's bound, relative to the output's largest magnitude */
const TOLERANCE = 1e-3

let site: TestPageSite
let run: FastRun

test.beforeAll(async () => {
  test.setTimeout(120_000)
  site = await serveTestPage(new URL('./fast-kernels-page/', import.meta.url), PORT)
  const page = await site.browser.newPage()
  await page.goto(site.url)
  await page.waitForFunction(() => typeof globalThis.runFastKernels === 'function')
  run = await page.evaluate(() => globalThis.runFastKernels!())
})

test.afterAll(async () => {
  await site?.close()
})

const f64 = (x: Float32Array) => Float64Array.from(x)

test('no WebGPU validation or compilation errors', () => {
  expect(run.errors).toEqual([])
})

test('fast matmul (A·Bᵀ and A·B) is within 1e-3 of float64', () => {
  const cases = matmulCases()
  expect(run.matmul).toHaveLength(cases.length)
  cases.forEach(({ shape: { m, n, k, transB }, a, b }, i) => {
    const bt = transB ? f64(b) : transpose(f64(b), k, n) // matmulNT takes B as [N, K]
    expect(maxRelToPeak(run.matmul[i]!, matmulNT(f64(a), bt, m, k, n)), `case ${i}`).toBeLessThan(TOLERANCE)
  })
})

test('fast softmax is within 1e-3 of float64, rows sum to 1', () => {
  const cases = softmaxCases()
  expect(run.softmax).toHaveLength(cases.length)
  cases.forEach(({ rows, cols, x }, i) => {
    const want = new Float64Array(rows * cols)
    for (let r = 0; r < rows; r++) want.set(softmaxRowF64(x.subarray(r * cols, (r + 1) * cols)), r * cols)
    const got = run.softmax[i]!
    expect(maxRelToPeak(got, want), `case ${i}`).toBeLessThan(TOLERANCE)
    const sum = got.slice(0, cols).reduce((s, p) => s + p, 0)
    expect(Math.abs(sum - 1), `case ${i} row 0 sum`).toBeLessThan(TOLERANCE)
  })
})

test('fast causal GQA attention is within 1e-3 of float64', () => {
  const cases = attentionCases()
  expect(run.attention).toHaveLength(cases.length)
  cases.forEach(({ shape, q, k, v }, i) => {
    const { batch, seqLen: s, heads, kvHeads, headDim: hd } = shape
    const want = new Float64Array(q.length)
    const [qw, kw] = [heads * hd, kvHeads * hd]
    for (let b = 0; b < batch; b++) {
      const seq = (t: Float32Array, w: number) => f64(t.subarray(b * s * w, (b + 1) * s * w))
      const { o } = attentionForward(seq(q, qw), seq(k, kw), seq(v, kw), {
        rows: s,
        past: 0,
        heads,
        kvHeads,
        hd,
      })
      want.set(o, b * s * qw)
    }
    expect(maxRelToPeak(run.attention[i]!, want), `case ${i}`).toBeLessThan(TOLERANCE)
  })
})
