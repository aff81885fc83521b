import { beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from './limits.ts'
import { QuickJSSandbox } from './quickjs-sandbox.ts'
import { compileQuickJSFromPackage } from './quickjs-wasm-node.ts'
import { SandboxClient } from './sandbox-client.ts'
import type { SandboxMethods } from './sandbox-protocol.ts'
import { serveRpc } from '../rpc/worker-rpc.ts'
import { inProcessWorker, type InProcessWorker } from '../../../test-support/rpc/in-process-worker.ts'

let engine: QuickJSSandbox
beforeAll(async () => {
  engine = await QuickJSSandbox.load(compileQuickJSFromPackage)
})

type Behaviour = 'run' | 'hang' | 'fail-to-load'

/** Stands in for workers/sandbox.worker.ts; `behaviour` decides what it does with a job. */
const fakeWorker = (behaviour: Behaviour) =>
  inProcessWorker<SandboxMethods>((scope) =>
    serveRpc(scope, {
      warm: () => {
        if (behaviour === 'fail-to-load') throw new Error('no engine')
      },
      run: ({ job, limits }) => (behaviour === 'run' ? engine.run(job, limits) : new Promise(() => {})),
    }),
  )

const job = { code: 'const twice = (x) => 2 * x', tests: [{ expression: 'twice(21)', expected: '42' }] }
const limits = { ...DEFAULT_LIMITS, deadlineMs: 300, killGraceMs: 200 }

function clientWith(...behaviours: Behaviour[]) {
  const spawned: InProcessWorker<SandboxMethods>[] = []
  const client = new SandboxClient(() => {
    const worker = fakeWorker(behaviours[Math.min(spawned.length, behaviours.length - 1)]!)
    spawned.push(worker)
    return worker
  }, limits)
  return { client, spawned }
}

describe('SandboxClient', () => {
  it('runs jobs in order on one worker', async () => {
    const { client, spawned } = clientWith('run')
    const results = await Promise.all([
      client.run(job),
      client.run({ ...job, code: 'const twice = (x) => x' }),
    ])
    expect(results.map((r) => r.verdict.kind)).toEqual(['pass', 'fail'])
    expect(spawned).toHaveLength(1)
  })

  it('kills a worker that does not answer by deadline + grace, and starts a fresh one', async () => {
    const { client, spawned } = clientWith('hang', 'run')
    const started = performance.now()
    const { verdict } = await client.run(job)
    const waited = performance.now() - started
    expect(verdict).toEqual({ kind: 'timeout', limit: 'hard-stop' })
    expect(waited).toBeGreaterThanOrEqual(limits.deadlineMs + limits.killGraceMs - 5)
    expect(waited).toBeLessThan(limits.deadlineMs + limits.killGraceMs + 1_000)
    expect(spawned[0]!.terminated).toBe(true)
    expect((await client.run(job)).verdict).toEqual({ kind: 'pass', tests: 1 })
    expect(spawned).toHaveLength(2)
  })

  it('scores jobs as errors while the engine cannot load, and retries with a new worker', async () => {
    const { client, spawned } = clientWith('fail-to-load', 'run')
    expect((await client.run(job)).verdict).toEqual({ kind: 'error', message: 'no engine' })
    expect((await client.run(job)).verdict).toEqual({ kind: 'pass', tests: 1 })
    expect(spawned).toHaveLength(2)
  })
})
