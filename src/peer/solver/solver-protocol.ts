// The messages between the page and workers/solver.worker.ts. The worker owns the model: it loads a
// model folder (docs/model-folder.md), keeps one onnxruntime-web session, and answers generate
// requests with G sampled completions per prompt, streaming tokens as they come.

/** Where a model folder comes from. Files and directory handles are structured-cloneable. */
/**
 * A prompt's text, which the solver frames with the model's prompt template and tokenizes, or the
 * token ids of a prompt already framed and tokenized (a learning round's: the same ids its group is
 * trained on, never re-tokenized).
 */
export type SolverPrompt = string | { readonly ids: readonly number[] }

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

export type SolverRequest =
  | { readonly type: 'load'; readonly source: ModelSource }
  | {
      readonly type: 'generate'
      readonly requestId: number
      readonly prompt: SolverPrompt
      /** G: completions sampled for this prompt, run as one batch */
      readonly samples: number
      readonly sampling: SamplingOptions
    }
  | { readonly type: 'cancel'; readonly requestId: number }
  /** new weights after a training step: a tabswarm-q1 checkpoint for the loaded model's config */
  | { readonly type: 'swap-weights'; readonly checkpoint: ArrayBuffer }

export type SolverEvent =
  | {
      readonly type: 'progress'
      readonly file: string
      readonly loadedBytes: number
      /** undefined while the size is unknown */
      readonly totalBytes: number | undefined
      readonly fromCache: boolean
    }
  | { readonly type: 'loaded'; readonly card: ModelCard }
  | { readonly type: 'tokens'; readonly requestId: number; readonly sample: number; readonly delta: string }
  | {
      readonly type: 'done'
      readonly requestId: number
      readonly completions: readonly Completion[]
      readonly tokensPerSecond: number
      /** from the request to the first sampled token */
      readonly firstTokenMs: number
    }
  | { readonly type: 'swapped'; readonly weightsHash: string }
  /** requestId is set when the error belongs to one generate request; the model stays loaded */
  | { readonly type: 'error'; readonly requestId?: number; readonly message: string }
