// The Verify view: receipts made in Node (the demo builders) validate and verify in a browser; a
// changed hashed field shows invalid naming it; a prover that ran on other weights (one bit flipped)
// than the ones it claims shows the first divergent op; bad files read as sentences.
import '../src/polyfills/promise-with-resolvers.ts'
import { generateKeyPair } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { checkpointHash, writeCheckpoint } from '../src/compute/model/checkpoint.ts'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { toBase64 } from '../src/compute/proof/base64.ts'
import { DEMO_MODEL, demoGeneration, demoTrainingStep } from '../src/host/demo/demo-receipts.ts'
import { genesis } from '../src/core/protocol/hash-chain.ts'
import { kernelsHashFromDisk } from '../src/compute/proof/kernels-hash-node.ts'
import { receiptBody, sealReceipt } from '../src/core/protocol/receipt.ts'
import { domainSigner } from '../src/core/identity/signing-domains.ts'
import { launchBrowser } from './browser.ts'

let tmp: string
let stack: Stack
let browser: Browser
let page: Page
let key: PrivateKey
let kernelsHash: string

test.describe.configure({ mode: 'serial' })

const write = (name: string, value: unknown) => {
  const path = join(tmp, name)
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value))
  return path
}

const shot = (name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true })

async function choose(receipt: string, inputs?: string) {
  await page.getByTestId('verify-receipt-file').setInputFiles(receipt)
  if (inputs) await page.getByTestId('verify-inputs-file').setInputFiles(inputs)
}

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tabswarm-verify-'))
  key = await generateKeyPair('Ed25519')
  kernelsHash = kernelsHashFromDisk()
  stack = await startStack({ relayPort: 19680, relayHttpPort: 19681, appPort: 19683 })
  browser = await launchBrowser()
  page = await (await browser.newContext()).newPage()
  await page.goto(`${stack.url}#/verify`)
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

test('a generation and a training step made in Node validate and re-execute to a match', async () => {
  for (const [name, made] of [
    ['generation', await demoGeneration(key, kernelsHash)],
    ['training-step', await demoTrainingStep(key, kernelsHash)],
  ] as const) {
    await choose(write(`${name}.receipt.json`, made.receipt), write(`${name}.inputs.json`, made.inputs))
    await expect(page.getByTestId('verify-kind')).toHaveText(name)
    await expect(page.getByTestId('verify-peer-name')).toHaveText(/^\w+ \w+ \w+$/)
    await expect(page.getByTestId('verify-validity')).toHaveAttribute('data-ok', 'true')
    await expect(page.getByTestId('verify-validity')).toContainText('valid')
    await page.getByRole('button', { name: 'Re-execute' }).click()
    await expect(page.getByTestId('verify-rerun-verdict')).toHaveAttribute('data-ok', 'true')
    await expect(page.getByTestId('verify-rerun-verdict')).toContainText('match')
    await shot(`${name}-match`)
  }
})

test('a changed hashed field shows invalid, naming the field', async () => {
  const made = await demoGeneration(key, kernelsHash)
  const tampered = {
    ...made.receipt,
    outputHash: made.receipt.outputHash.replace(/^./, (c) => (c === '0' ? '1' : '0')),
  }
  await choose(write('tampered.receipt.json', tampered))
  await expect(page.getByTestId('verify-validity')).toHaveAttribute('data-ok', 'false')
  await expect(page.getByTestId('verify-validity')).toContainText('invalid')
  // the receipt hash no longer covers the fields: that is the failing field validate names
  await expect(page.getByTestId('verify-validity-field')).toHaveText('receiptHash')
  await expect(page.getByTestId('verify-validity-message')).toContainText('a hashed field was changed')
  await shot('tampered-invalid')
})

test('work done on weights one bit off from the claimed ones names the first divergent op', async () => {
  const claimed = writeCheckpoint(DEMO_MODEL.config, DEMO_MODEL.params)
  const claimedHash = checkpointHash(claimed)
  const params = new Map(DEMO_MODEL.params)
  const [name, tensor] = [...params].find(([n]) => n.includes('embed')) ?? [...params][0]!
  const data = Int32Array.from(tensor.data)
  data[3 * (data.length / DEMO_MODEL.config.vocabSize) + 1]! ^= 1 // a weight of prompt token 3's row
  params.set(name, { ...tensor, data })
  const made = await demoGeneration(key, kernelsHash, { ...DEMO_MODEL, params })
  // the dishonest prover claims the original weights while its trace and outputs come from the others
  const chain = genesis(claimedHash)
  const receipt = await sealReceipt(
    { ...receiptBody(made.receipt), weightsHash: claimedHash, chainTip: chain.tip },
    domainSigner(key),
  )
  const inputs = { ...made.inputs, checkpoint: toBase64(claimed), chain }
  await choose(write('flipped.receipt.json', receipt), write('flipped.inputs.json', inputs))
  await expect(page.getByTestId('verify-validity')).toHaveAttribute('data-ok', 'true')
  await page.getByRole('button', { name: 'Re-execute' }).click()
  await expect(page.getByTestId('verify-rerun-verdict')).toHaveAttribute('data-ok', 'false')
  // the flipped weight is in prompt token 3's embedding row: the very first op reads it
  await expect(page.getByTestId('verify-divergence-index')).toHaveText('#0')
  await expect(page.getByTestId('verify-divergence-op')).toHaveText('token0/embed')
  await expect(page.getByTestId('verify-rerun-verdict-message')).toContainText('first divergent op')
  await shot('divergent-op')
})

test('bad files read as sentences and nothing crashes', async () => {
  await choose(write('not-json.receipt.json', '{ nope'))
  await expect(page.getByTestId('verify-file-error')).toHaveText('not-json.receipt.json is not JSON')
  await choose(write('wrong.receipt.json', { hello: 'world' }))
  await expect(page.getByTestId('verify-validity')).toHaveAttribute('data-ok', 'false')
  await expect(page.getByTestId('verify-validity-field')).not.toBeEmpty()
  const huge = join(tmp, 'huge.receipt.json')
  writeFileSync(huge, Buffer.alloc(21 * 1024 * 1024, 0x20))
  await choose(huge)
  await expect(page.getByTestId('verify-file-error')).toContainText('the limit is 20 MB')
  await shot('bad-files')
  // the view still works after all that
  const made = await demoGeneration(key, kernelsHash)
  await choose(write('again.receipt.json', made.receipt))
  await expect(page.getByTestId('verify-validity')).toHaveAttribute('data-ok', 'true')
})
