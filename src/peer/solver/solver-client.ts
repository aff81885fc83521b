// The page's side of workers/solver.worker.ts: one worker that owns the model, called over the worker
// RPC (src/peer/rpc/worker-rpc.ts). The worker runs load, generate and swapWeights in the order sent,
// so a generate sent after swapWeights samples from the new weights; cancel acts at once.
import { workerRpc, type RpcWorker } from '../rpc/worker-rpc.ts'
import type {
  GenerateResult,
  LoadProgress,
  ModelCard,
  ModelSource,
  SamplingOptions,
  SolverMethods,
  SolverPrompt,
} from './solver-protocol.ts'

/** The part of a Worker the client uses, so tests can stand in for one. */
export type SolverWorker = RpcWorker<SolverMethods>

/** What went wrong, so the UI can word it: a failed load, generate or swap; a dead worker. */
export type SolverErrorKind =
  'load-failed' | 'generate-failed' | 'swap-failed' | 'worker-crashed' | 'terminated'

export class SolverError extends Error {
  override readonly name = 'SolverError'
  constructor(
    readonly kind: SolverErrorKind,
    message: string,
  ) {
    super(message)
  }
}

/** A generate call: the result, and the id `cancel` takes. */
export type GenerateCall = Promise<GenerateResult> & { readonly requestId: number }

export interface SolverClient {
  /** Loads a model folder, replacing any loaded model; resolves with its card. */
  load(source: ModelSource, onProgress?: (progress: LoadProgress) => void): Promise<ModelCard>
  /** Samples `samples` completions of `prompt` (text: framed by the model's prompt template) as one batch. */
  generate(
    prompt: SolverPrompt,
    samples: number,
    sampling: SamplingOptions,
    onDelta?: (sample: number, delta: string) => void,
  ): GenerateCall
  /** Stops a generate request early; its promise resolves with the tokens so far. Unknown ids are ignored. */
  cancel(requestId: number): void
  /** New weights (a tabswarm-q1 checkpoint for the loaded config); resolves with their SHA-256 once in use. */
  swapWeights(checkpoint: Uint8Array): Promise<string>
  /** The loaded model, undefined before the first load succeeds. */
  readonly card: ModelCard | undefined
  /** Stops the worker; pending calls reject with kind 'terminated'. */
  terminate(): void
}

function spawnBrowserWorker(): SolverWorker {
  return new Worker(new URL('../../../workers/solver.worker.ts', import.meta.url), {
    type: 'module',
  }) as SolverWorker
}

const FAILED: Record<keyof SolverMethods, SolverErrorKind> = {
  load: 'load-failed',
  generate: 'generate-failed',
  cancel: 'generate-failed',
  swapWeights: 'swap-failed',
}

export function createSolverClient(spawn: () => SolverWorker = spawnBrowserWorker): SolverClient {
  let card: ModelCard | undefined
  const rpc = workerRpc(spawn, {
    errorOf: (method, message) => new SolverError(FAILED[method], message),
    crashed: (message) => new SolverError('worker-crashed', `the solver worker crashed: ${message}`),
    // a new worker has no model loaded
    onStop: () => (card = undefined),
  })
  // generate calls still running, so a cancel goes out only for one the worker may still be sampling
  const generating = new Set<number>()

  return {
    get card() {
      return card
    },

    async load(source, onProgress) {
      card = await rpc.call('load', source, onProgress ? { onProgress } : {})
      return card
    },

    generate(prompt, samples, sampling, onDelta) {
      const call = rpc.call(
        'generate',
        { prompt, samples, sampling },
        { onProgress: ({ sample, delta }) => onDelta?.(sample, delta) },
      )
      generating.add(call.id)
      const result = call.finally(() => generating.delete(call.id))
      return Object.assign(result, { requestId: call.id })
    },

    cancel(requestId) {
      if (generating.has(requestId)) void rpc.call('cancel', { callId: requestId }).catch(() => {})
    },

    async swapWeights(checkpoint) {
      // a copy the worker owns, so the caller keeps its bytes
      const buffer = checkpoint.slice().buffer
      const weightsHash = await rpc.call('swapWeights', buffer, { transfer: [buffer] })
      if (card) card = { ...card, weightsHash }
      return weightsHash
    },

    terminate() {
      rpc.stop(new SolverError('terminated', 'the solver was terminated'))
    },
  }
}
