// The reproducible kernels and a training program on WGSL under Node Dawn — an opt-in check
// (`npm run test:dawn`), not part of `npm test`: Dawn 0.6.2 on SwiftShader dies in native code too often
// to gate on (dawn-child.ts). The same checks run in Chromium in `npm test` (e2e/kernels.spec.ts,
// e2e/training-proof.spec.ts).
import { describe, expect, it } from 'vitest'
import { runSync } from '../../model/program.ts'
import { trainingProofProgram, type ProofResult } from '../../model/training-proof.ts'
import { TWIN_OPS } from '../../model/twin-ops.ts'
import { matmul } from '../ref/matmul.ts'
import { moduleUrl, runInDawn } from './dawn-child.ts'
import { parityCases, twinBits } from './kernel-cases.ts'
import type { ParityRun } from './kernel-parity.ts'
import { bitsOf, matmulCases } from './matmul-cases.ts'

const parityChild = `
  import { readFileSync, writeFileSync } from 'node:fs'
  const { nodeGpu } = await import(${moduleUrl('./node-gpu.ts')})
  const { readShaders } = await import(${moduleUrl('./node-shaders.ts')})
  const { runKernelParity } = await import(${moduleUrl('./kernel-parity.ts')})
  const probe = readFileSync(new URL('../../../../e2e/kernels-page/primitives.wgsl', ${moduleUrl('./')}), 'utf8')
  const run = await runKernelParity(await nodeGpu(), readShaders(), probe)
  writeFileSync(process.env.DAWN_RESULT, JSON.stringify({ adapter: run.adapter, gpu: run.gpu, errors: run.errors }))
  process.exit(0)
`

const proofChild = `
  import { writeFileSync } from 'node:fs'
  const { nodeGpu } = await import(${moduleUrl('./node-gpu.ts')})
  const { readShaders } = await import(${moduleUrl('./node-shaders.ts')})
  const { createReproducibleRunner } = await import(${moduleUrl('../reproducible-runner.ts')})
  const { trainingProofProgram } = await import(${moduleUrl('../../model/training-proof.ts')})
  const runner = await createReproducibleRunner(await nodeGpu(), readShaders())
  const result = await runner.run(trainingProofProgram())
  writeFileSync(process.env.DAWN_RESULT, JSON.stringify({ backend: runner.backend, note: runner.note, ...result }))
  process.exit(0)
`

describe('WGSL under Node Dawn', () => {
  it('every reproducible kernel gives the TS twin’s bytes, whatever the workgroup size', () => {
    const run = runInDawn<Pick<ParityRun, 'adapter' | 'gpu' | 'errors'>>(parityChild, '', {
      attempts: 3,
      timeoutMs: 600_000,
    })
    if ('crashed' in run) throw new Error(run.crashed)
    expect(run.result.errors).toEqual([])
    const twin = {
      matmul: matmulCases().map((c) => bitsOf(matmul(c.a, c.b, c.options))),
      ...twinBits(parityCases()),
    }
    for (const [suite, bits] of Object.entries(twin))
      for (const outs of run.result.gpu[suite]!) expect(outs, suite).toEqual(bits)
  }, 1_800_000)

  it('the 50-step training proof ends on the TS twin’s weights, step for step', () => {
    const run = runInDawn<ProofResult & { backend: string; note: string | null }>(proofChild, '', {
      attempts: 3,
      timeoutMs: 900_000,
    })
    if ('crashed' in run) throw new Error(run.crashed)
    expect(run.result.backend, run.result.note ?? '').toBe('webgpu')
    expect(run.result.stepHashes).toEqual(runSync(trainingProofProgram(), TWIN_OPS).stepHashes)
  }, 2_700_000)
})
