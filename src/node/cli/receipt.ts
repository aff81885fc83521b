// `npm run receipt -- validate <file>`: checks a receipt from the file alone (schema, hashes, signature).
// `npm run receipt -- verify <file> [--inputs <file>]`: re-executes its work on the TS twin from the
//   side file (default: <file> with .receipt.json → .inputs.json; src/core/protocol/inputs-file.ts) and names
//   the first divergent field or op.
// `npm run receipt -- demo <dir>`: writes a generation and a training-step receipt of the test model,
//   signed by a fresh key, with their inputs files.
// Exit codes: 0 valid/verified, 1 the receipt fails, 2 usage or unreadable files.
import { generateKeyPair } from '@libp2p/crypto/keys'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { demoGeneration, demoTrainingStep } from '../../host/demo/demo-receipts.ts'
import { defaultInputsPath } from '../../core/protocol/inputs-file.ts'
import { kernelsHashFromDisk } from '../../compute/proof/kernels-hash-node.ts'
import { validate, type Verdict } from '../../core/protocol/receipt.ts'
import type { Receipt } from '../../core/protocol/receipt-schema.ts'
import { verify } from '../../compute/proof/verify.ts'

const USAGE = `usage: npm run receipt -- validate <file>
       npm run receipt -- verify <file> [--inputs <file>]
       npm run receipt -- demo <dir>`

class UsageError extends Error {}

function readJson(path: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new UsageError(`${path} is not JSON`)
  }
}

function report(verdict: Verdict, what: string, receipt: unknown): number {
  if (!verdict.ok) {
    console.log(`✗ ${what}: ${verdict.field}: ${verdict.message}`)
    return 1
  }
  const r = receipt as Receipt
  console.log(
    `✓ ${what}: ${r.kind} receipt ${r.receiptHash.slice(0, 16)}… by ${r.peerId} (model ${r.modelId})`,
  )
  return 0
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { inputs: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  const [command, path] = positionals
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  if (!path || positionals.length > 2) throw new UsageError(USAGE)
  if (command === 'validate') return report(await validate(readJson(path)), 'valid', readJson(path))
  if (command === 'verify') {
    const receipt = readJson(path)
    const inputs = readJson(values.inputs ?? defaultInputsPath(path))
    return report(await verify(receipt, inputs, kernelsHashFromDisk()), 'verified', receipt)
  }
  if (command === 'demo') {
    mkdirSync(path, { recursive: true })
    const key = await generateKeyPair('Ed25519')
    const kernelsHash = kernelsHashFromDisk()
    for (const [name, made] of [
      ['generation', await demoGeneration(key, kernelsHash)],
      ['training-step', await demoTrainingStep(key, kernelsHash)],
    ] as const) {
      writeFileSync(join(path, `${name}.receipt.json`), JSON.stringify(made.receipt, null, 2) + '\n')
      writeFileSync(join(path, `${name}.inputs.json`), JSON.stringify(made.inputs) + '\n')
      console.log(`wrote ${join(path, `${name}.receipt.json`)} and its .inputs.json`)
    }
    return 0
  }
  throw new UsageError(USAGE)
}

try {
  process.exitCode = await main(process.argv.slice(2))
} catch (error) {
  console.error(error instanceof UsageError ? error.message : error)
  process.exitCode = 2
}
