// The methods workers/solver.worker.ts serves the page (over src/peer/rpc/worker-rpc.ts). The worker
// owns the model: it loads a model folder (docs/model-folder.md), keeps one onnxruntime-web session,
// and answers generate calls with G sampled completions per prompt, streaming tokens as they come. It
// runs load, generate and swapWeights one at a time in the order sent (a generate sent after a swap
// samples from the new weights); cancel acts at once.
import type { RpcMethod } from '../rpc/worker-rpc.ts'

/**
 * A prompt's text, which the solver frames with the model's prompt template and tokenizes, or the
 * token ids of a prompt already framed and tokenized (a learning round's: the same ids its group is
 * trained on, never re-tokenized).
 */
export type SolverPrompt = string | { readonly ids: readonly number[] }

/** Where a model folder comes from. Files and directory handles are structured-cloneable. */
export type ModelSource =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'files'; readonly files: readonly File[] }
  | { readonly kind: 'directory'; readonly handle: FileSystemDirectoryHandle }
  /** a folder the tab already read from `url` (path → bytes): loaded without fetching it again */
  | { readonly kind: 'read'; readonly url: string; readonly files: Readonly<Record<string, Uint8Array>> }

export interface SamplingOptions {
  /** 0 means greedy (argmax). */
  readonly temperature: number
  /** Keep only the k most likely tokens; 0 disables. */
  readonly topK: number
  /** Keep the smallest set of tokens whose probability reaches p; 1 disables. */
  readonly topP: number
  readonly maxNewTokens: number
  /** Seeds the sampler: the same seed, weights and prompt give the same completions on one backend. */
  readonly seed: number
}

export type SolverBackend = 'wasm' | 'webgpu'

/** What the Solve view shows about the loaded model. */
export interface ModelCard {
  readonly name: string
  readonly parameters: number
  /** bytes of the model files */
  readonly sizeBytes: number
  readonly backend: SolverBackend
  /** hex SHA-256 of the weights (tabswarm models: the checkpoint file; others: the .onnx file) */
  readonly weightsHash: string
  /** whether tabswarm can train this model in the tab (only its own checkpoint format) */
  readonly trainable: boolean
  /** 'shipped', a URL, or the picked folder's name */
  readonly source: string
  readonly vocabSize: number
  readonly maxContext: number
}

/** 'max-tokens': the sample reached maxNewTokens or the end of the model's context, whichever came first. */
export type StopReason = 'eos' | 'max-tokens' | 'cancelled'

export interface Completion {
  readonly text: string
  readonly tokenIds: readonly number[]
  readonly stop: StopReason
}

/** One file of a folder being loaded. */
export interface LoadProgress {
  /** the file's path inside the model folder, e.g. `onnx/model.onnx` */
  readonly file: string
  readonly loadedBytes: number
  /** undefined while the size is unknown */
  readonly totalBytes: number | undefined
  readonly fromCache: boolean
}

export interface GenerateResult {
  /** G completions, in sample order; a cancelled call resolves with what it had (stop 'cancelled') */
  readonly completions: readonly Completion[]
  readonly tokensPerSecond: number
  /** from the call to the first sampled token */
  readonly firstTokenMs: number
}

export interface SolverMethods {
  /** loads a model folder, replacing any loaded model (a failed load leaves the previous one serving) */
  load: RpcMethod<ModelSource, ModelCard, LoadProgress>
  /** G completions of one prompt as one batch, each new piece of text reported as it is sampled */
  generate: RpcMethod<
    {
      readonly prompt: SolverPrompt
      /** G: completions sampled for this prompt, run as one batch */
      readonly samples: number
      readonly sampling: SamplingOptions
    },
    GenerateResult,
    { readonly sample: number; readonly delta: string }
  >
  /** stops the generate call `callId` early (it resolves with what it had); unknown ids are ignored */
  cancel: RpcMethod<{ readonly callId: number }, void>
  /** new weights after a training step, a tabswarm-q1 checkpoint for the loaded config: their SHA-256 */
  swapWeights: RpcMethod<ArrayBuffer, string>
}
