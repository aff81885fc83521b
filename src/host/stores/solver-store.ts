// The Solve view's state: the model (idle, loading with per-file progress, ready with its card, or an
// error sentence), the task settings and the current task, the completions as they stream and then
// their rewards, a batch's progress, and the history of solved tasks. The model choice and the history
// persist in localStorage, so a reload reloads the same model (from the OPFS cache) and keeps the table.
import { createStore } from 'zustand/vanilla'
import { createJSONStorage, persist } from 'zustand/middleware'
import type { LoadProgress, ModelCard, StopReason } from '../../peer/solver/solver-protocol.ts'
import type { RewardBreakdown } from '../../core/tasks/reward.ts'
import type { Difficulty, Task } from '../../core/tasks/task.ts'

/** Solved tasks kept in the history table (newest last): enough for a long session, small in storage. */
export const HISTORY_KEPT = 200

/** Which model to load. A picked folder cannot be reopened after a reload (no handle is kept), only named. */
export type ModelChoice =
  | { readonly kind: 'shipped' }
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'folder'; readonly name: string }

export type FileProgress = LoadProgress

export type ModelStatus =
  | { readonly phase: 'idle' }
  | { readonly phase: 'loading'; readonly files: readonly FileProgress[] }
  | { readonly phase: 'ready'; readonly card: ModelCard; readonly files: readonly FileProgress[] }
  | { readonly phase: 'error'; readonly message: string; readonly files: readonly FileProgress[] }

export interface TaskSettings {
  /** a family id from task-choice.ts ('reasoning/arithmetic', 'code/digit-sum') or 'any' */
  readonly family: string
  readonly difficulty: Difficulty
  readonly seed: number
  /** G: completions sampled per task */
  readonly samples: number
  readonly temperature: number
  readonly topK: number
  readonly topP: number
  readonly maxTokens: number
}

export interface CompletionResult {
  readonly text: string
  readonly tokens: number
  readonly stop: StopReason
  readonly reward: RewardBreakdown
  /** the sandbox's verdict kind for code tasks whose completion had code */
  readonly verdict?: string
}

export type SolvePhase = 'generating' | 'scoring' | 'done' | 'error'

export interface SolveRun {
  readonly taskId: string
  readonly phase: SolvePhase
  /** one growing text per sample while generating; the final texts after */
  readonly texts: readonly string[]
  readonly results: readonly CompletionResult[]
  readonly passAt1: number | null
  readonly passAtK: number | null
  readonly tokensPerSecond: number | null
  readonly firstTokenMs: number | null
  readonly error: string | null
}

/** One solved task, as the history table shows it. */
export interface HistoryRow {
  readonly taskId: string
  readonly family: string
  readonly difficulty: Difficulty
  readonly seed: number
  /** total reward of each completion */
  readonly rewards: readonly number[]
  readonly correct: number
  readonly formatted: number
  readonly passAt1: number
  readonly tokensPerSecond: number
  /** the weights that solved it */
  readonly weightsHash: string
  readonly solvedAt: number
}

export interface BatchProgress {
  readonly done: number
  readonly total: number
}

export interface SolverState {
  choice: ModelChoice
  model: ModelStatus
  settings: TaskSettings
  task: Task | null
  /** an error drawing the task from the settings, as a sentence */
  taskError: string | null
  run: SolveRun | null
  batch: BatchProgress | null
  history: HistoryRow[]
}

/**
 * Defaults that fit the shipped model: room for its longest working (modular arithmetic, 42 tokens) after
 * a difficulty-1 prompt; a longer prompt gets what is left of the 128-token context.
 */
export const DEFAULT_SETTINGS: TaskSettings = {
  family: 'reasoning/arithmetic',
  difficulty: 1,
  seed: 1,
  samples: 4,
  temperature: 0.7,
  topK: 40,
  topP: 0.95,
  maxTokens: 64,
}

export const solverStore = createStore<SolverState>()(
  persist(
    (): SolverState => ({
      choice: { kind: 'shipped' },
      model: { phase: 'idle' },
      settings: DEFAULT_SETTINGS,
      task: null,
      taskError: null,
      run: null,
      batch: null,
      history: [],
    }),
    {
      name: 'tabswarm:solver',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ choice, settings, history }) => ({ choice, settings, history }),
    },
  ),
)

/** The files' progress with one progress event applied (a file's latest event replaces its earlier one). */
export function withProgress(
  files: readonly FileProgress[],
  { file, loadedBytes, totalBytes, fromCache }: FileProgress,
): FileProgress[] {
  const next = { file, loadedBytes, totalBytes, fromCache }
  const at = files.findIndex((f) => f.file === file)
  return at < 0 ? [...files, next] : files.map((f, i) => (i === at ? next : f))
}

/** 0…1 for one file; a file of unknown size counts as half done until its last event says otherwise. */
export function fileFraction({ loadedBytes, totalBytes }: FileProgress): number {
  if (totalBytes === undefined) return loadedBytes > 0 ? 0.5 : 0
  if (totalBytes === 0) return 1
  return Math.min(1, loadedBytes / totalBytes)
}

/** The history with `row` appended, the newest HISTORY_KEPT kept. */
export function appendHistory(history: readonly HistoryRow[], row: HistoryRow): HistoryRow[] {
  return [...history, row].slice(-HISTORY_KEPT)
}

/** The run with `delta` appended to sample `sample`'s text (samples may report out of order). */
export function withDelta(run: SolveRun, sample: number, delta: string): SolveRun {
  const texts = [...run.texts]
  while (texts.length <= sample) texts.push('')
  texts[sample] += delta
  return { ...run, texts }
}

export function startedRun(taskId: string, samples: number): SolveRun {
  return {
    taskId,
    phase: 'generating',
    texts: Array.from({ length: samples }, () => ''),
    results: [],
    passAt1: null,
    passAtK: null,
    tokensPerSecond: null,
    firstTokenMs: null,
    error: null,
  }
}
