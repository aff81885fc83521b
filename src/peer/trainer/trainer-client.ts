// The page's side of workers/trainer.worker.ts: one worker that owns the trainer. Requests are answered
// by id; the worker runs them one at a time in the order sent, so a step sent right after init trains
// the new weights. Signing the step's receipt is the caller's (the peer key stays on the main thread:
// src/compute/proof/receipt-builders.ts `signPrepared`).
import type { TokenizedGroup } from '../../core/learning/tokenized-group.ts'
import type { GrpoParams } from '../../compute/proof/work-params.ts'
import type { TrainerEvent, TrainerRequest } from './trainer-protocol.ts'
import type { TrainerReady, TrainerStart, TrainerStepResult } from './trainer-session.ts'

/** The part of a Worker the client uses, so tests can stand in for one. */
export interface TrainerWorker {
  postMessage(message: TrainerRequest, transfer?: Transferable[]): void
  terminate(): void
  onmessage: ((event: MessageEvent<TrainerEvent>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
}

/** What went wrong, so the UI can word it: a refused or failed request; a dead worker. */
export type TrainerErrorKind = 'failed' | 'worker-crashed' | 'terminated'

export class TrainerError extends Error {
  override readonly name = 'TrainerError'
  constructor(
    readonly kind: TrainerErrorKind,
    message: string,
  ) {
    super(message)
  }
}

export interface TrainerClient {
  /** The trainer saved under `key` (snapshotKeyOf a peer), or undefined when there is none. */
  resume(key?: string): Promise<TrainerReady | undefined>
  /** Starts from fresh weights, replacing any trainer saved under `key`. */
  init(start: TrainerStart, key?: string): Promise<TrainerReady>
  /** One GRPO step; resolves once it is saved, with new weights and the receipt to sign. */
  step(groups: readonly TokenizedGroup[], params: GrpoParams): Promise<TrainerStepResult>
  /** Stops the worker; pending calls reject with kind 'terminated'. The saved trainer stays. */
  terminate(): void
}

function spawnBrowserWorker(): TrainerWorker {
  return new Worker(new URL('../../../workers/trainer.worker.ts', import.meta.url), {
    type: 'module',
  }) as TrainerWorker
}

interface Pending {
  resolve(event: TrainerEvent): void
  reject(error: TrainerError): void
}

/** A request as the caller writes it: each kind of request without the id the client adds. */
type WithoutId<R> = R extends unknown ? Omit<R, 'requestId'> : never
type Unsent = WithoutId<TrainerRequest>

export function createTrainerClient(spawn: () => TrainerWorker = spawnBrowserWorker): TrainerClient {
  let worker: TrainerWorker | undefined
  let nextRequestId = 1
  const pending = new Map<number, Pending>()

  const failAll = (error: TrainerError) => {
    for (const p of pending.values()) p.reject(error)
    pending.clear()
    worker?.terminate()
    worker = undefined
  }

  const started = (): TrainerWorker => {
    if (worker) return worker
    const fresh = spawn()
    fresh.onmessage = ({ data }) => {
      const p = pending.get(data.requestId)
      pending.delete(data.requestId)
      if (data.type === 'error') p?.reject(new TrainerError('failed', data.message))
      else p?.resolve(data)
    }
    fresh.onerror = (event) =>
      failAll(new TrainerError('worker-crashed', `the trainer worker crashed: ${event.message}`))
    worker = fresh
    return fresh
  }

  const send = (request: Unsent, transfer: Transferable[] = []): Promise<TrainerEvent> =>
    new Promise((resolve, reject) => {
      const requestId = nextRequestId++
      pending.set(requestId, { resolve, reject })
      started().postMessage({ ...request, requestId } as TrainerRequest, transfer)
    })

  const readyOf = (event: TrainerEvent): TrainerReady | null => {
    if (event.type !== 'ready') throw new TrainerError('failed', `unexpected ${event.type} answer`)
    return event.ready
  }

  return {
    async resume(key) {
      return readyOf(await send({ type: 'resume', key })) ?? undefined
    },
    async init(start, key) {
      // a copy the worker owns, so the caller keeps its bytes
      const copy = 'checkpoint' in start ? { ...start, checkpoint: start.checkpoint.slice() } : start
      const transfer = 'checkpoint' in copy ? [copy.checkpoint.buffer as ArrayBuffer] : []
      const ready = readyOf(await send({ type: 'init', start: copy, key }, transfer))
      if (!ready) throw new TrainerError('failed', 'the trainer answered init without weights')
      return ready
    },
    async step(groups, params) {
      const event = await send({ type: 'step', groups, params })
      if (event.type !== 'stepped') throw new TrainerError('failed', `unexpected ${event.type} answer`)
      return event.result
    },
    terminate() {
      failAll(new TrainerError('terminated', 'the trainer was terminated'))
    },
  }
}
