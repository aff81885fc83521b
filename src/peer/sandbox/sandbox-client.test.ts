import { beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from './limits.ts'
import { QuickJSSandbox } from './quickjs-sandbox.ts'
import { compileQuickJSFromPackage } from './quickjs-wasm-node.ts'
import { SandboxClient, type SandboxWorker } from './sandbox-client.ts'
import type { SandboxReply, SandboxRequest } from './sandbox-messages.ts'

let engine: QuickJSSandbox
beforeAll(async () => {
  engine = await QuickJSSandbox.load(compileQuickJSFromPackage)
})

/** Stands in for workers/sandbox.worker.ts; `behaviour` decides what it does with a job. */
class FakeWorker implements SandboxWorker {
  onmessage: ((event: MessageEvent<SandboxReply>) => void) | null = null
  onerror: ((event: ErrorEvent) => void) | null = null
  terminated = false

  constructor(private readonly behaviour: 'run' | 'hang' | 'fail-to-load') {
    setTimeout(() =>
      this.reply(
        behaviour === 'fail-to-load' ? { type: 'load-failed', message: 'no engine' } : { type: 'ready' },
      ),
    )
  }

  postMessage({ id, job, limits }: SandboxRequest): void {
    if (this.behaviour === 'run')
      void engine.run(job, limits).then((result) => this.reply({ type: 'result', id, result }))
  }

  terminate(): void {
    this.terminated = true
  }

  private reply(data: SandboxReply): void {
    if (!this.terminated) this.onmessage?.({ data } as MessageEvent<SandboxReply>)
  }
}

const job = { code: 'const twice = (x) => 2 * x', tests: [{ expression: 'twice(21)', expected: '42' }] }
const limits = { ...DEFAULT_LIMITS, deadlineMs: 300, killGraceMs: 200 }

function clientWith(...behaviours: FakeWorker['behaviour'][]) {
  const spawned: FakeWorker[] = []
  const client = new SandboxClient(() => {
    const worker = new FakeWorker(behaviours[Math.min(spawned.length, behaviours.length - 1)]!)
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
