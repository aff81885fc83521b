// What the training-proof test asks of a browser context, page or worker alike: the 50-step proof on
// this runtime's reproducible runner (WGSL when it has a device), and receipts made and checked there.
import { generateKeyPair } from '@libp2p/crypto/keys'
import { BUNDLED_SHADERS } from '../../src/compute/kernels/gpu/bundled-shaders.ts'
import {
  createReproducibleRunner,
  type ReproducibleRunner,
} from '../../src/compute/kernels/reproducible-runner.ts'
import { trainingProofProgram, type ProofResult } from '../../src/compute/model/training-proof.ts'
import { demoGeneration, demoTrainingStep } from '../../src/host/demo/demo-receipts.ts'
import { BUNDLED_KERNELS_HASH } from '../../src/compute/proof/kernels-hash-bundled.ts'
import type { MadeReceipt } from '../../src/compute/proof/receipt-builders.ts'
import { verify, type VerifyVerdict } from '../../src/compute/proof/verify.ts'

export interface ProofRun extends ProofResult {
  readonly backend: ReproducibleRunner['backend']
  readonly adapter: string
  readonly note: string | null
  readonly ms: number
}

let runner: Promise<ReproducibleRunner> | undefined
const reproducible = () => (runner ??= createReproducibleRunner(navigator.gpu, BUNDLED_SHADERS))

export async function runProof(steps: number): Promise<ProofRun> {
  const r = await reproducible()
  const started = performance.now()
  const result = await r.run(trainingProofProgram(steps))
  const adapter = r.adapter
    ? `${r.adapter.vendor} ${r.adapter.architecture} ${r.adapter.description}`.trim()
    : ''
  return { ...result, backend: r.backend, adapter, note: r.note, ms: Math.round(performance.now() - started) }
}

export interface MadeReceipts {
  readonly backend: ReproducibleRunner['backend']
  readonly kernelsHash: string
  readonly generation: MadeReceipt
  readonly training: MadeReceipt
}

/** A generation and a training step of the demo model on this runtime's runner, signed by a fresh key. */
export async function makeReceipts(): Promise<MadeReceipts> {
  const r = await reproducible()
  const key = await generateKeyPair('Ed25519')
  return {
    backend: r.backend,
    kernelsHash: BUNDLED_KERNELS_HASH,
    generation: await demoGeneration(key, BUNDLED_KERNELS_HASH, undefined, r.run),
    training: await demoTrainingStep(key, BUNDLED_KERNELS_HASH, undefined, r.run),
  }
}

/** Re-executes a receipt on this runtime's runner. */
export async function verifyHere(receipt: unknown, inputs: unknown): Promise<VerifyVerdict> {
  return verify(receipt, inputs, BUNDLED_KERNELS_HASH, (await reproducible()).run)
}
