// The reproducible kernels' training proof (issue 3), through the real parts: the 50-step supervised
// run of src/compute/model/training-proof.ts as a program on the WGSL kernels of two browser contexts and of a
// dedicated worker (SwiftShader here, a GPU elsewhere) ends on the TS twin's weights hash in Node,
// step for step; its held-out loss halves and lands within 10% of a float64 run from the same init and
// batches. Receipts made on the WGSL kernels in one context verify in another, in a worker and in
// Node; a flipped weight bit or a changed hashed field is named.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test, type Page } from '@playwright/test'
import { adamWState } from '../src/compute/model/f64/adamw.ts'
import { flatFromParams } from '../src/compute/model/f64/flat-params.ts'
import { batchGradient, sftStep } from '../src/compute/model/f64/sft-step.ts'
import { initParams } from '../src/compute/model/params.ts'
import { runSync } from '../src/compute/model/program.ts'
import {
  evalSequences,
  PROOF_CONFIG,
  PROOF_INIT_SEED,
  PROOF_STEPS,
  PROOF_TRAIN,
  trainingProofProgram,
  trainSequences,
  type ProofResult,
} from '../src/compute/model/training-proof.ts'
import { TWIN_OPS } from '../src/compute/model/twin-ops.ts'
import { fromBase64, toBase64 } from '../src/compute/proof/base64.ts'
import { kernelsHashFromDisk } from '../src/compute/proof/kernels-hash-node.ts'
import { verify } from '../src/compute/proof/verify.ts'
import type { MadeReceipts, ProofRun } from './program-page/proof-run.ts'
import { serveTestPage, type TestPageSite } from './test-page.ts'

const PORT = 19795

let site: TestPageSite
let pages: Page[]

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(180_000)
  site = await serveTestPage(new URL('./program-page/', import.meta.url), PORT)
  // two browser contexts: separate storage, separate GPU devices
  pages = await Promise.all(
    [0, 1].map(async () => {
      const page = await (await site.browser.newContext()).newPage()
      await page.goto(site.url)
      await page.waitForFunction(() => globalThis.proofPage !== undefined)
      return page
    }),
  )
})

test.afterAll(async () => {
  await site?.close()
})

/** The float64 run: the same model, init, batches and optimizer settings, no rounding anywhere. */
function f64EvalLoss(): { first: number; last: number } {
  const model = flatFromParams(PROOF_CONFIG, initParams(PROOF_CONFIG, PROOF_INIT_SEED))
  const optimizer = adamWState(model.specs)
  const settings = { ...PROOF_TRAIN, clipNorm: PROOF_TRAIN.maxGradNorm }
  const scored = (sequences: Int32Array[]) => sequences.map((ids) => ({ ids, lossFrom: 1 }))
  const first = batchGradient(model, scored(evalSequences())).loss
  for (let step = 0; step < PROOF_STEPS; step++)
    sftStep(model, optimizer, settings, PROOF_TRAIN.lr, scored(trainSequences(step)))
  return { first, last: batchGradient(model, scored(evalSequences())).loss }
}

/** The first step whose weights differ from the twin's ('none' when every step agrees). */
const firstDivergentStep = (got: readonly string[], want: readonly string[]) => {
  const i = want.findIndex((hash, step) => got[step] !== hash)
  return i < 0 && got.length === want.length ? 'none' : `step ${i < 0 ? got.length + 1 : i + 1}`
}

test('50 WGSL training steps end on the TS twin’s weights in two contexts and a worker; the loss halves, near float64', async () => {
  test.setTimeout(600_000)
  const [a, b] = pages as [Page, Page]
  const runs = Promise.all([
    a.evaluate((steps) => globalThis.proofPage!.runProof(steps), PROOF_STEPS),
    b.evaluate((steps) => globalThis.proofPage!.runProof(steps), PROOF_STEPS),
    a.evaluate((steps) => globalThis.proofPage!.worker({ kind: 'proof', steps }), PROOF_STEPS),
  ])
  // Node: the twin (no WebGPU adapter in Node here) and the float64 reference, while the browsers work
  const started = performance.now()
  const twin: ProofResult = runSync(trainingProofProgram(), TWIN_OPS)
  const twinMs = performance.now() - started
  const f64 = f64EvalLoss()
  const [pageA, pageB, worker] = (await runs) as [ProofRun, ProofRun, ProofRun]
  console.log(
    `training proof: twin ${Math.round(twinMs)} ms; WGSL page ${pageA.ms} / ${pageB.ms} ms, worker ${worker.ms} ms on ${pageA.adapter}; ` +
      `eval loss ${twin.evalLoss.first.toFixed(4)} → ${twin.evalLoss.last.toFixed(4)} (f64 ${f64.last.toFixed(4)})`,
  )
  for (const run of [pageA, pageB, worker]) {
    expect(run.backend, run.note ?? '').toBe('webgpu')
    expect(firstDivergentStep(run.stepHashes, twin.stepHashes)).toBe('none')
    expect(run.evalLoss).toEqual(twin.evalLoss)
  }
  expect(twin.stepHashes).toHaveLength(PROOF_STEPS)
  expect(new Set(twin.stepHashes).size).toBe(PROOF_STEPS) // every step moved the weights
  expect(twin.evalLoss.last).toBeLessThanOrEqual(twin.evalLoss.first / 2)
  expect(Math.abs(twin.evalLoss.last - f64.last) / f64.last).toBeLessThanOrEqual(0.1)
})

/** Re-executes a receipt in a page (or its worker); the values are plain JSON on the way in and out. */
function verifyIn(page: Page, where: 'page' | 'worker', receipt: unknown, inputs: unknown): Promise<unknown> {
  const args: [string, unknown, unknown] = [where, receipt, inputs]
  return page.evaluate(
    ([at, r, i]) =>
      at === 'page'
        ? (globalThis.proofPage!.verifyHere(r, i) as Promise<unknown>)
        : globalThis.proofPage!.worker({ kind: 'verify', receipt: r, inputs: i }),
    args,
  )
}

test('receipts made on the WGSL kernels in one context verify in another, in a worker and in Node; tampering is named', async () => {
  test.setTimeout(300_000)
  const [a, b] = pages as [Page, Page]
  // typed by hand: Playwright's unwrapping of the receipt types is too deep for the compiler
  const made = (await a.evaluate(
    () => globalThis.proofPage!.makeReceipts() as Promise<unknown>,
  )) as MadeReceipts
  expect(made.backend).toBe('webgpu')
  expect(made.kernelsHash).toBe(kernelsHashFromDisk())
  for (const kind of ['generation', 'training'] as const) {
    const { receipt, inputs } = made[kind]
    expect(await verify(receipt, inputs, kernelsHashFromDisk())).toEqual({ ok: true })
    expect(await verifyIn(b, 'page', receipt, inputs)).toEqual({ ok: true })
    expect(await verifyIn(b, 'worker', receipt, inputs)).toEqual({ ok: true })
  }
  // one bit of a weight in the side file: the weights are not the ones the receipt names
  const { receipt, inputs } = made.training
  const checkpoint = fromBase64(inputs.checkpoint)
  checkpoint[checkpoint.length - 1]! ^= 1
  const flipped = { ...inputs, checkpoint: toBase64(checkpoint) }
  expect(await verifyIn(b, 'page', receipt, flipped)).toMatchObject({ ok: false, field: 'weightsHash' })
  expect(await verify(receipt, flipped, kernelsHashFromDisk())).toMatchObject({
    ok: false,
    field: 'weightsHash',
  })
  // a hashed field changed after signing
  const changed = { ...receipt, params: { ...receipt.params, lr: 0.02 } }
  expect(await verifyIn(b, 'page', changed, inputs)).toMatchObject({ ok: false, field: 'paramsHash' })
})
