// The page's side of workers/solver.worker.ts: one worker that owns the model. Every request is posted
// at once, and the worker answers them in the order sent, so a generate sent after swapWeights samples
// from the new weights. Generate answers carry ids; load and swap answers do not, so they settle the
// oldest pending load or swap (first in, first out).
import type {
  Completion,
  ModelCard,
  ModelSource,
  SamplingOptions,
  SolverEvent,
  SolverPrompt,
  SolverRequest,
} from './solver-protocol.ts'

/** The part of a Worker the client uses, so tests can stand in for one. */
export interface SolverWorker {
  postMessage(message: SolverRequest, transfer?: Transferable[]): void
  terminate(): void
  onmessage: ((event: MessageEvent<SolverEvent>) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
}

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

export interface LoadProgress {
  /** the file's path inside the model folder, e.g. `onnx/model.onnx` */
  readonly file: string
  readonly loadedBytes: number
  /** undefined while the size is unknown */
  readonly totalBytes: number | undefined
  readonly fromCache: boolean
}

export interface GenerateResult {
  /** G completions, in sample order; a cancelled request resolves with what it had (stop 'cancelled') */
  readonly completions: readonly Completion[]
  readonly tokensPerSecond: number
  readonly firstTokenMs: number
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

interface PendingGenerate {
  readonly onDelta: ((sample: number, delta: string) => void) | undefined
  resolve(result: GenerateResult): void
  reject(error: SolverError): void
}

/** A load or swap waiting for its event. */
interface PendingControl {
  readonly kind: 'load' | 'swap'
  readonly onProgress?: (progress: LoadProgress) => void
  resolve(event: SolverEvent): void
  reject(error: SolverError): void
}

export function createSolverClient(spawn: () => SolverWorker = spawnBrowserWorker): SolverClient {
  let worker: SolverWorker | undefined
  let card: ModelCard | undefined
  let nextRequestId = 1
  const generates = new Map<number, PendingGenerate>()
  /** loads and swaps awaiting their event, oldest first */
  const controls: PendingControl[] = []

  const failAll = (error: SolverError) => {
    for (const pending of generates.values()) pending.reject(error)
    generates.clear()
    for (const pending of controls.splice(0)) pending.reject(error)
    worker?.terminate()
    worker = undefined
    card = undefined
  }

  const onEvent = (event: SolverEvent) => {
    switch (event.type) {
      case 'tokens':
        generates.get(event.requestId)?.onDelta?.(event.sample, event.delta)
        return
      case 'done': {
        const pending = generates.get(event.requestId)
        generates.delete(event.requestId)
        const { completions, tokensPerSecond, firstTokenMs } = event
        pending?.resolve({ completions, tokensPerSecond, firstTokenMs })
        return
      }
      case 'progress':
        controls[0]?.onProgress?.(event)
        return
      case 'loaded':
      case 'swapped':
        controls.shift()?.resolve(event)
        return
      case 'error': {
        if (event.requestId !== undefined) {
          const pending = generates.get(event.requestId)
          generates.delete(event.requestId)
          pending?.reject(new SolverError('generate-failed', event.message))
        } else {
          const pending = controls.shift()
          pending?.reject(
            new SolverError(pending.kind === 'load' ? 'load-failed' : 'swap-failed', event.message),
          )
        }
        return
      }
    }
  }

  const started = (): SolverWorker => {
    if (worker) return worker
    const fresh = spawn()
    fresh.onmessage = ({ data }) => onEvent(data)
    fresh.onerror = (event) =>
      failAll(new SolverError('worker-crashed', `the solver worker crashed: ${event.message}`))
    worker = fresh
    return fresh
  }

  /** Sends a load or swap and waits for its event. */
  const runControl = (
    kind: PendingControl['kind'],
    send: (target: SolverWorker) => void,
    onProgress?: (progress: LoadProgress) => void,
  ): Promise<SolverEvent> =>
    new Promise<SolverEvent>((resolve, reject) => {
      const target = started()
      controls.push({ kind, onProgress, resolve, reject })
      send(target)
    })

  return {
    get card() {
      return card
    },

    async load(source, onProgress) {
      const event = await runControl(
        'load',
        (target) => target.postMessage({ type: 'load', source }),
        onProgress,
      )
      if (event.type !== 'loaded') throw new SolverError('load-failed', `unexpected ${event.type} event`)
      card = event.card
      return event.card
    },

    generate(prompt, samples, sampling, onDelta) {
      const requestId = nextRequestId++
      const result = new Promise<GenerateResult>((resolve, reject) => {
        generates.set(requestId, { onDelta, resolve, reject })
        started().postMessage({ type: 'generate', requestId, prompt, samples, sampling })
      })
      return Object.assign(result, { requestId })
    },

    cancel(requestId) {
      if (generates.has(requestId)) worker?.postMessage({ type: 'cancel', requestId })
    },

    async swapWeights(checkpoint) {
      const event = await runControl('swap', (target) => {
        // a copy the worker owns, so the caller keeps its bytes
        const buffer = checkpoint.slice().buffer
        target.postMessage({ type: 'swap-weights', checkpoint: buffer }, [buffer])
      })
      if (event.type !== 'swapped') throw new SolverError('swap-failed', `unexpected ${event.type} event`)
      if (card) card = { ...card, weightsHash: event.weightsHash }
      return event.weightsHash
    },

    terminate() {
      failAll(new SolverError('terminated', 'the solver was terminated'))
    },
  }
}
