// The page's side of workers/trainer.worker.ts: one worker that owns the trainer. Requests are answered
// by id; the worker runs them one at a time in the order sent, so a step sent right after init trains
// the new weights. Signing the step's receipt is the caller's (the peer key stays on the main thread:
// src/compute/proof/receipt-builders.ts `signPrepared`).
import type { TokenizedGroup } from '../../core/learning/tokenized-group.ts'
import type { GrpoParams } from '../../compute/proof/work-params.ts'
import { workerRpc, type RpcWorker } from '../rpc/worker-rpc.ts'
import type { TrainerMethods } from './trainer-protocol.ts'
import type { TrainerReady, TrainerStart, TrainerStepResult } from './trainer-session.ts'

/** The part of a Worker the client uses, so tests can stand in for one. */
export type TrainerWorker = RpcWorker<TrainerMethods>

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

export function createTrainerClient(spawn: () => TrainerWorker = spawnBrowserWorker): TrainerClient {
  const rpc = workerRpc(spawn, {
    errorOf: (_method, message) => new TrainerError('failed', message),
    crashed: (message) => new TrainerError('worker-crashed', `the trainer worker crashed: ${message}`),
  })
  return {
    async resume(key) {
      return (await rpc.call('resume', { key })) ?? undefined
    },
    init(start, key) {
      // a copy the worker owns, so the caller keeps its bytes
      const copy = 'checkpoint' in start ? { ...start, checkpoint: start.checkpoint.slice() } : start
      const transfer = 'checkpoint' in copy ? [copy.checkpoint.buffer as ArrayBuffer] : []
      return rpc.call('init', { start: copy, key }, { transfer })
    },
    step: (groups, params) => rpc.call('step', { groups, params }),
    terminate() {
      rpc.stop(new TrainerError('terminated', 'the trainer was terminated'))
    },
  }
}
