// The main thread's side of the sandbox: one worker, one job at a time. The worker's interrupt handler
// stops the guest at its deadline; if the worker still has not answered `killGraceMs` later (the engine
// stuck inside a builtin, or the interrupt failing), the client kills it — a hard stop no guest code can
// prevent — scores the job as a timeout and starts a fresh worker for the next job.
import { DEFAULT_LIMITS, type SandboxLimits } from './limits.ts'
import type { SandboxReply, SandboxRequest } from './sandbox-messages.ts'
import type { SandboxJob } from '../../core/tasks/sandbox-job.ts'
import type { SandboxResult, Verdict } from '../../core/tasks/verdict.ts'

/** The part of a Worker the client uses, so tests can stand in for one. */
export interface SandboxWorker {
  postMessage(message: SandboxRequest): void
  terminate(): void
  onmessage: ((event: MessageEvent<SandboxReply>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
}

/** How long a new worker may take to fetch and compile the engine before its jobs score as errors. */
const LOAD_TIMEOUT_MS = 30_000

export class SandboxClient {
  private worker: SandboxWorker | undefined
  private ready: Promise<void> | undefined
  private nextId = 1
  /** jobs run one after another: each has the whole worker, and its deadline starts when it is sent */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly spawn: () => SandboxWorker,
    private readonly limits: SandboxLimits = DEFAULT_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts the worker and compiles the engine ahead of the first job. */
  warm(): Promise<void> {
    return this.started().ready
  }

  run(job: SandboxJob, limits: SandboxLimits = this.limits): Promise<SandboxResult> {
    const result = this.queue.then(() => this.runNow(job, limits))
    this.queue = result.catch(() => undefined)
    return result
  }

  dispose(): void {
    this.worker?.terminate()
    this.worker = undefined
    this.ready = undefined
  }

  private started(): { worker: SandboxWorker; ready: Promise<void> } {
    if (this.worker && this.ready) return { worker: this.worker, ready: this.ready }
    const worker = this.spawn()
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the sandbox worker did not start in time')),
        LOAD_TIMEOUT_MS,
      )
      worker.onmessage = ({ data }) => {
        clearTimeout(timer)
        if (data.type === 'ready') resolve()
        else if (data.type === 'load-failed') reject(new Error(data.message))
      }
      worker.onerror = (event) => {
        clearTimeout(timer)
        reject(new Error(`the sandbox worker failed to start: ${event.message}`))
      }
    })
    // A failed start is reported to the job that waits for it; the next job tries a new worker.
    ready.catch(() => this.dispose())
    this.worker = worker
    this.ready = ready
    return { worker, ready }
  }

  private async runNow(job: SandboxJob, limits: SandboxLimits): Promise<SandboxResult> {
    const { worker, ready } = this.started()
    try {
      await ready
    } catch (error) {
      return decidedHere({ kind: 'error', message: (error as Error).message }, 0)
    }
    const id = this.nextId++
    const sent = this.now()
    return new Promise<SandboxResult>((resolve) => {
      const finish = (outcome: SandboxResult, replaceWorker: boolean) => {
        clearTimeout(timer)
        worker.onmessage = worker.onerror = null
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
      worker.onmessage = ({ data }) => {
        if (data.type === 'result' && data.id === id) finish(data.result, false)
      }
      worker.onerror = (event) =>
        finish(
          decidedHere(
            { kind: 'error', message: `the sandbox worker crashed: ${event.message}` },
            this.now() - sent,
          ),
          true,
        )
      worker.postMessage({ type: 'run', id, job, limits })
    })
  }
}

/** A result the main thread decided, without an answer from the worker. */
function decidedHere(verdict: Verdict, elapsedMs: number): SandboxResult {
  return { verdict, output: '', steps: 0, elapsedMs }
}
