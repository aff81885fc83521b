// The solver worker's logic, apart from the worker global so Node tests drive it directly. Calls run
// one at a time in arrival order (a load, a generate, a weight swap), so new weights go in between
// generate calls, never during one, and a generate sent after a swap samples from the new weights.
// Only cancel acts at once. A failed load or swap leaves the previous model serving. solverHandlers
// serves it as the worker's methods (solver-protocol.ts).
import { headDim } from '../../compute/model/config.ts'
import { parameterLayout } from '../../compute/model/layout.ts'
import type { FolderReader } from '../../compute/model/load/folder-reader.ts'
import { loadModelFolder, type ModelFolder } from '../../compute/model/load/load-model-folder.ts'
import { onnxFromCheckpoint } from './checkpoint-onnx.ts'
import { chooseBackend } from './choose-backend.ts'
import { generate } from './generate.ts'
import { ortDecoder, type OrtKvCache } from './ort-decoder.ts'
import { createSession, type OrtModule } from './ort-runtime.ts'
import { framePrompt, promptTemplate } from './prompt-frame.ts'
import type { Decoder } from './generate.ts'
import type { InferenceSession } from 'onnxruntime-web'
import type { RpcHandlers } from '../rpc/worker-rpc.ts'
import type {
  GenerateResult,
  LoadProgress,
  ModelCard,
  ModelSource,
  SolverBackend,
  SolverMethods,
  SolverPrompt,
  SamplingOptions,
} from './solver-protocol.ts'

export interface SolverSessionDeps {
  /** the onnxruntime-web module that has the backend's EP */
  importOrt(backend: SolverBackend): Promise<OrtModule>
  /** whether a real GPU (not a CPU fallback adapter) is there for the WebGPU EP */
  hasRealGpu(): Promise<boolean>
  readerFor(source: ModelSource): FolderReader
  now(): number
}

/** Same-origin URLs under this path are the models the app ships (public/models/). */
export const SHIPPED_MODELS_PATH = '/models/'

interface LoadedModel {
  readonly folder: ModelFolder
  readonly ort: OrtModule
  readonly session: InferenceSession
  readonly decoder: Decoder<OrtKvCache>
  readonly template: string
  readonly card: ModelCard
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function cardSource(source: ModelSource, folder: ModelFolder): string {
  if ((source.kind !== 'url' && source.kind !== 'read') || typeof location === 'undefined')
    return folder.source
  const url = new URL(folder.source)
  return url.origin === location.origin && url.pathname.startsWith(SHIPPED_MODELS_PATH)
    ? 'shipped'
    : folder.source
}

/** Prompt ids as sent: each must name a token of the model's vocabulary. */
function checkedIds(ids: readonly number[], vocabSize: number): readonly number[] {
  const bad = ids.find((id) => !Number.isInteger(id) || id < 0 || id >= vocabSize)
  if (bad !== undefined)
    throw new RangeError(`prompt: token id ${bad} is outside the model's vocabulary of ${vocabSize}`)
  return ids
}

export class SolverSession {
  private model: LoadedModel | undefined
  private queue: Promise<void> = Promise.resolve()
  /** generate requests received and not yet done, so cancel reaches queued ones too */
  private readonly running = new Map<number, AbortController>()

  constructor(private readonly deps: SolverSessionDeps) {}

  load(source: ModelSource, onProgress: (progress: LoadProgress) => void): Promise<ModelCard> {
    return this.enqueue(() => this.loadNow(source, onProgress))
  }

  /** Samples in turn; `callId` is what cancel names (a cancel that comes while it waits reaches it too). */
  generate(
    request: { prompt: SolverPrompt; samples: number; sampling: SamplingOptions },
    callId: number,
    onDelta: (sample: number, delta: string) => void,
  ): Promise<GenerateResult> {
    const receivedAt = this.deps.now()
    const controller = new AbortController()
    this.running.set(callId, controller)
    return this.enqueue(() => this.generateNow(request, onDelta, controller.signal, receivedAt)).finally(() =>
      this.running.delete(callId),
    )
  }

  cancel(callId: number): void {
    this.running.get(callId)?.abort()
  }

  swap(checkpoint: ArrayBuffer): Promise<string> {
    return this.enqueue(() => this.swapNow(checkpoint))
  }

  /** Runs `task` after every call before it, whether they failed or not. */
  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task)
    this.queue = result.then(
      () => undefined,
      () => undefined,
    )
    return result
  }

  private async loadNow(source: ModelSource, onProgress: (p: LoadProgress) => void): Promise<ModelCard> {
    const folder = await loadModelFolder(this.deps.readerFor(source), onProgress)
    const preferred = chooseBackend(folder.onnx.length, await this.deps.hasRealGpu())
    let opened: { ort: OrtModule; session: InferenceSession; backend: SolverBackend }
    try {
      opened = await this.open(preferred, folder.onnx)
    } catch (error) {
      if (preferred === 'wasm') throw new Error(`could not start the model ${folder.name}: ${message(error)}`)
      // a GPU that fails to start the model (driver, limits) still leaves the CPU
      opened = await this.open('wasm', folder.onnx)
    }
    const { config } = folder
    const card: ModelCard = {
      name: folder.name,
      parameters: parameterLayout(config).reduce((n, { shape }) => n + shape.reduce((a, b) => a * b, 1), 0),
      sizeBytes: folder.sizeBytes,
      backend: opened.backend,
      weightsHash: folder.weightsHash,
      trainable: folder.trainable,
      source: cardSource(source, folder),
      vocabSize: config.vocabSize,
      maxContext: config.maxSeqLen,
    }
    const decoder = this.decoderFor(opened, folder)
    const previous = this.model
    this.model = {
      folder,
      ...opened,
      decoder,
      template: promptTemplate(folder.manifest, folder.tokenizer),
      card,
    }
    await previous?.session.release()
    return card
  }

  private async open(backend: SolverBackend, onnx: Uint8Array) {
    const ort = await this.deps.importOrt(backend)
    return { ort, backend, session: await createSession(ort, backend, onnx) }
  }

  private decoderFor({ ort, session }: { ort: OrtModule; session: InferenceSession }, folder: ModelFolder) {
    const { config } = folder
    try {
      return ortDecoder(ort, session, {
        vocabSize: config.vocabSize,
        maxContext: config.maxSeqLen,
        kvHeads: config.kvHeads,
        headDim: headDim(config),
      })
    } catch (error) {
      void session.release()
      throw new Error(`model ${folder.name}: ${message(error)}`)
    }
  }

  private async generateNow(
    request: { prompt: SolverPrompt; samples: number; sampling: SamplingOptions },
    onDelta: (sample: number, delta: string) => void,
    signal: AbortSignal,
    receivedAt: number,
  ): Promise<GenerateResult> {
    const model = this.model
    if (!model) throw new Error('no model is loaded; load a model folder before generating')
    const { tokenizer, eosIds, config } = model.folder
    const { prompt } = request
    const outcome = await generate(model.decoder, {
      promptIds:
        typeof prompt === 'string'
          ? tokenizer.encode(framePrompt(model.template, prompt))
          : checkedIds(prompt.ids, config.vocabSize),
      samples: request.samples,
      sampling: request.sampling,
      eosIds,
      decode: (ids) => tokenizer.decode(ids),
      onDelta,
      signal,
      startedAt: receivedAt,
      now: this.deps.now,
    })
    return outcome
  }

  private async swapNow(checkpoint: ArrayBuffer): Promise<string> {
    const model = this.model
    if (!model) throw new Error('no model is loaded; swap-weights needs a loaded tabswarm model')
    if (!model.folder.trainable)
      throw new Error(
        `the loaded model ${model.folder.name} is not trainable: swap-weights needs a tabswarm model`,
      )
    let built: { onnx: Uint8Array; weightsHash: string }
    try {
      built = onnxFromCheckpoint(model.folder.config, new Uint8Array(checkpoint))
    } catch (error) {
      throw new Error(`swap-weights refused: ${message(error)}; the current weights stay loaded`)
    }
    const session = await createSession(model.ort, model.card.backend, built.onnx)
    const decoder = this.decoderFor({ ort: model.ort, session }, model.folder)
    this.model = { ...model, session, decoder, card: { ...model.card, weightsHash: built.weightsHash } }
    await model.session.release()
    return built.weightsHash
  }
}

/** The session as the worker's methods. */
export function solverHandlers(session: SolverSession): RpcHandlers<SolverMethods> {
  return {
    load: (source, { progress }) => session.load(source, progress),
    generate: (request, { id, progress }) =>
      session.generate(request, id, (sample, delta) => progress({ sample, delta })),
    cancel: ({ callId }) => session.cancel(callId),
    swapWeights: (checkpoint) => session.swap(checkpoint),
  }
}
