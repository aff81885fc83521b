import { generateKeyPair } from '@libp2p/crypto/keys'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { demoGeneration, demoTrainingStep } from '../../host/demo/demo-receipts.ts'
import { defaultInputsPath } from '../../core/protocol/inputs-file.ts'
import { kernelsHashFromDisk } from '../../compute/proof/kernels-hash-node.ts'

const dir = mkdtempSync(join(tmpdir(), 'tabswarm-receipt-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** `npm run receipt -- …` in a fresh Node process: nothing is shared with the process that signed. */
async function receiptCli(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', './src/polyfills/register.js', 'src/node/cli/receipt.ts', ...args],
      { cwd: process.cwd() },
    )
    return { code: 0, out: stdout + stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, out: e.stdout + e.stderr }
  }
}

describe('npm run receipt', () => {
  it('validates and verifies receipts made in another process; a changed field exits 1', async () => {
    const key = await generateKeyPair('Ed25519')
    const kernelsHash = kernelsHashFromDisk()
    const made = [await demoGeneration(key, kernelsHash), await demoTrainingStep(key, kernelsHash)]
    const paths = made.map(({ receipt, inputs }, i) => {
      const path = join(dir, `r${i}.receipt.json`)
      writeFileSync(path, JSON.stringify(receipt))
      writeFileSync(defaultInputsPath(path), JSON.stringify(inputs))
      return path
    })
    const tampered = join(dir, 'tampered.json')
    writeFileSync(tampered, JSON.stringify({ ...made[0]!.receipt, tokenCount: 4 }))
    const results = await Promise.all([
      ...paths.map((p) => receiptCli('validate', p)),
      ...paths.map((p) => receiptCli('verify', p)),
      receiptCli('validate', tampered),
      receiptCli('verify', paths[0]!, '--inputs', defaultInputsPath(paths[1]!)),
      receiptCli('verify', join(dir, 'missing.json')),
    ])
    const [v0, v1, f0, f1, bad, crossed, missing] = results
    expect(v0).toMatchObject({ code: 0, out: expect.stringMatching(/✓ valid: generation receipt/) })
    expect(v1).toMatchObject({ code: 0, out: expect.stringMatching(/✓ valid: training-step receipt/) })
    expect(f0).toMatchObject({ code: 0, out: expect.stringMatching(/✓ verified: generation/) })
    expect(f1).toMatchObject({ code: 0, out: expect.stringMatching(/✓ verified: training-step/) })
    expect(bad).toMatchObject({ code: 1, out: expect.stringMatching(/✗ valid: receiptHash: /) })
    expect(crossed).toMatchObject({ code: 1, out: expect.stringMatching(/✗ verified: kind: /) })
    expect(missing).toMatchObject({ code: 2, out: expect.stringMatching(/cannot read/) })
  })

  it('finds the inputs file next to the receipt', () => {
    expect(defaultInputsPath('a/run.receipt.json')).toBe('a/run.inputs.json')
    expect(defaultInputsPath('a/run.json')).toBe('a/run.inputs.json')
    expect(defaultInputsPath('a/run')).toBe('a/run.inputs.json')
  })
})
