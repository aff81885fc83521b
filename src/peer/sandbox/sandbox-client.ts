// The main thread's side of the sandbox: one worker, one job at a time. The worker's interrupt handler
// stops the guest at its deadline; if the worker still has not answered `killGraceMs` later (the engine
// stuck inside a builtin, or the interrupt failing), the client kills it — a hard stop no guest code can
// prevent — scores the job as a timeout and starts a fresh worker for the next job.
import { workerRpc, type RpcWorker, type WorkerRpc } from '../rpc/worker-rpc.ts'
import { DEFAULT_LIMITS, type SandboxLimits } from './limits.ts'
import type { SandboxMethods } from './sandbox-protocol.ts'
import type { SandboxJob } from '../../core/tasks/sandbox-job.ts'
import type { SandboxResult, Verdict } from '../../core/tasks/verdict.ts'

/** The part of a Worker the client uses, so tests can stand in for one. */
export type SandboxWorker = RpcWorker<SandboxMethods>

/** How long a new worker may take to fetch and compile the engine before its jobs score as errors. */
const LOAD_TIMEOUT_MS = 30_000

export class SandboxClient {
  private readonly rpc: WorkerRpc<SandboxMethods>
  private ready: Promise<void> | undefined
  /** jobs run one after another: each has the whole worker, and its deadline starts when it is sent */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    spawn: () => SandboxWorker,
    private readonly limits: SandboxLimits = DEFAULT_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.rpc = workerRpc(spawn, {
      errorOf: (_method, message) => new Error(message),
      crashed: (message) => new Error(`the sandbox worker crashed: ${message}`),
      // the next job starts (and warms) a fresh worker
      onStop: () => (this.ready = undefined),
    })
  }

  /** Starts the worker and compiles the engine ahead of the first job. */
  warm(): Promise<void> {
    if (this.ready) return this.ready
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the sandbox worker did not start in time')),
        LOAD_TIMEOUT_MS,
      )
      this.rpc
        .call('warm', null)
        .then(resolve, reject)
        .finally(() => clearTimeout(timer))
    })
    // A failed start is reported to the job that waits for it; the next job tries a new worker.
    ready.catch(() => {
      if (this.ready === ready) this.dispose()
    })
    this.ready = ready
    return ready
  }

  run(job: SandboxJob, limits: SandboxLimits = this.limits): Promise<SandboxResult> {
    const result = this.queue.then(() => this.runNow(job, limits))
    this.queue = result.catch(() => undefined)
    return result
  }

  dispose(): void {
    this.rpc.stop(new Error('the sandbox worker was stopped'))
  }

  private async runNow(job: SandboxJob, limits: SandboxLimits): Promise<SandboxResult> {
    try {
      await this.warm()
    } catch (error) {
      return decidedHere({ kind: 'error', message: (error as Error).message }, 0)
    }
    const sent = this.now()
    return new Promise<SandboxResult>((resolve) => {
      let done = false
      const finish = (outcome: SandboxResult, replaceWorker: boolean) => {
        if (done) return
        done = true
        clearTimeout(timer)
        if (replaceWorker) {
          this.dispose()
          void this.warm().catch(() => undefined)
        }
        resolve(outcome)
      }
      const timer = setTimeout(
        () => finish(decidedHere({ kind: 'timeout', limit: 'hard-stop' }, this.now() - sent), true),
        limits.deadlineMs + limits.killGraceMs,
      )
      this.rpc.call('run', { job, limits }).then(
        (result) => finish(result, false),
        (error: unknown) =>
          finish(decidedHere({ kind: 'error', message: (error as Error).message }, this.now() - sent), true),
      )
    })
  }
}

/** A result the main thread decided, without an answer from the worker. */
function decidedHere(verdict: Verdict, elapsedMs: number): SandboxResult {
  return { verdict, output: '', steps: 0, elapsedMs }
}
