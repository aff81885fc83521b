// What the Solve view's buttons do: load a model into the solver worker, draw tasks, sample G
// completions per task (streaming them into the store), score them and keep the history. One solver
// client per tab, made on first use; a newer load or solve makes the results of an older one stale,
// and stale results never reach the store.
import type { SolverClient } from '../../peer/solver/solver-client.ts'
import type { ModelSource, SamplingOptions } from '../../peer/solver/solver-protocol.ts'
import {
  appendHistory,
  startedRun,
  withDelta,
  withProgress,
  type ModelChoice,
  type SolverState,
  type TaskSettings,
  solverStore,
} from '../stores/solver-store.ts'
import { drawTask } from './task-choice.ts'
import { scoreCompletions, type RunSandbox } from './score-run.ts'

/** The shipped model, relative to the page (public/models/tabswarm-tiny/). */
export const SHIPPED_MODEL_PATH = 'models/tabswarm-tiny/'

/** The part of the solver client the view drives (tests stand in for it). */
export type SolverPort = Pick<SolverClient, 'load' | 'generate' | 'cancel'>

export interface SessionDeps {
  solver: () => SolverPort
  runSandbox: RunSandbox
  now: () => number
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err))

export function sourceOf(choice: ModelChoice, pageUrl: string): ModelSource | undefined {
  if (choice.kind === 'shipped') return { kind: 'url', url: new URL(SHIPPED_MODEL_PATH, pageUrl).href }
  if (choice.kind === 'url') return { kind: 'url', url: new URL(choice.url, pageUrl).href }
  return undefined
}

export function createSolveSession(deps: SessionDeps) {
  const store = solverStore
  const set = (patch: Partial<SolverState>) => store.setState(patch)
  let loads = 0
  let solves = 0
  let stopBatch = false
  /** the generate request in flight, for Stop */
  let inFlight: number | undefined

  /** Loads `source` as `choice`; the model stays usable on error, which names the file and why. */
  async function loadModel(choice: ModelChoice, source: ModelSource): Promise<void> {
    const load = ++loads
    ++solves // a solve of the old model is no longer wanted
    set({ choice, model: { phase: 'loading', files: [] }, run: null })
    const current = () => load === loads
    const filesNow = () => {
      const model = store.getState().model
      return 'files' in model ? model.files : []
    }
    try {
      const card = await deps.solver().load(source, (progress) => {
        if (current()) set({ model: { phase: 'loading', files: withProgress(filesNow(), progress) } })
      })
      if (current()) set({ model: { phase: 'ready', card, files: filesNow() } })
    } catch (err) {
      if (current()) set({ model: { phase: 'error', message: errorText(err), files: filesNow() } })
    }
  }

  /** The remembered choice, loaded again (a URL model comes from the OPFS cache); no-op for a folder. */
  function reloadChoice(pageUrl: string): Promise<void> {
    const { choice } = store.getState()
    const source = sourceOf(choice, pageUrl)
    return source ? loadModel(choice, source) : Promise.resolve()
  }

  /** Draws the task the settings name; a bad setting becomes taskError. */
  function drawCurrent(): void {
    const { family, difficulty, seed } = store.getState().settings
    try {
      set({ task: drawTask(family, difficulty, seed), taskError: null, run: null })
    } catch (err) {
      set({ task: null, taskError: errorText(err), run: null })
    }
  }

  /** Changes settings; a change of family, difficulty or seed draws that task. */
  function updateSettings(patch: Partial<TaskSettings>): void {
    const { settings } = store.getState()
    set({ settings: { ...settings, ...patch } })
    if ('family' in patch || 'difficulty' in patch || 'seed' in patch) drawCurrent()
  }

  function nextTask(): void {
    const { settings } = store.getState()
    set({ settings: { ...settings, seed: settings.seed + 1 } })
    drawCurrent()
  }

  /** Samples, streams and scores the current task; resolves false when it did not finish. */
  async function solve(): Promise<boolean> {
    const { task, settings, model } = store.getState()
    if (!task || model.phase !== 'ready') return false
    const solve = ++solves
    const current = () => solve === solves
    const update = (f: (s: SolverState) => Partial<SolverState>) => {
      if (current()) store.setState(f)
    }
    set({ run: startedRun(task.id, settings.samples) })
    const sampling: SamplingOptions = {
      temperature: settings.temperature,
      topK: settings.topK,
      topP: settings.topP,
      maxNewTokens: settings.maxTokens,
      seed: settings.seed,
    }
    try {
      const call = deps
        .solver()
        .generate(task.prompt, settings.samples, sampling, (sample, delta) =>
          update((s) => (s.run ? { run: withDelta(s.run, sample, delta) } : {})),
        )
      inFlight = call.requestId
      const out = await call.finally(() => (inFlight = undefined))
      if (!current()) return false
      if (out.completions.some((c) => c.stop === 'cancelled'))
        throw new Error('stopped before the completions were finished: this task was not scored')
      const timing = { tokensPerSecond: out.tokensPerSecond, firstTokenMs: out.firstTokenMs }
      update((s) => ({
        run: s.run && { ...s.run, ...timing, phase: 'scoring', texts: out.completions.map((c) => c.text) },
      }))
      const scored = await scoreCompletions(task, out.completions, settings.maxTokens, deps.runSandbox)
      if (!current()) return false
      update((s) => ({
        run: s.run && { ...s.run, phase: 'done', ...scored },
        history: appendHistory(s.history, {
          taskId: task.id,
          family: task.family,
          difficulty: task.difficulty,
          seed: task.seed,
          rewards: scored.results.map((r) => r.reward.total),
          correct: scored.correct,
          formatted: scored.formatted,
          passAt1: scored.passAt1,
          tokensPerSecond: out.tokensPerSecond,
          weightsHash: model.card.weightsHash,
          solvedAt: deps.now(),
        }),
      }))
      return true
    } catch (err) {
      update((s) => ({ run: s.run && { ...s.run, phase: 'error', error: errorText(err) } }))
      return false
    }
  }

  /** Solves `count` tasks in a row from the current one, showing how far it got; stops at an error. */
  async function solveBatch(count: number): Promise<void> {
    stopBatch = false
    if (!store.getState().task) drawCurrent()
    for (let done = 0; done < count && !stopBatch; done++) {
      set({ batch: { done, total: count } })
      if (done > 0) nextTask()
      if (!(await solve())) break
      set({ batch: { done: done + 1, total: count } })
    }
    set({ batch: null })
  }

  /** Stops the generation in flight and the batch around it. */
  function cancel(): void {
    stopBatch = true
    if (inFlight !== undefined) deps.solver().cancel(inFlight)
  }

  return { loadModel, reloadChoice, drawCurrent, updateSettings, nextTask, solve, solveBatch, cancel }
}

export type SolveSession = ReturnType<typeof createSolveSession>
