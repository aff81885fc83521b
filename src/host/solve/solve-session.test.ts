import { beforeEach, describe, expect, it } from 'vitest'
import type { GenerateCall } from '../../peer/solver/solver-client.ts'
import type { GenerateResult } from '../../peer/solver/solver-protocol.ts'
import type { ModelCard } from '../../peer/solver/solver-protocol.ts'
import { DEFAULT_SETTINGS, solverStore } from '../stores/solver-store.ts'
import { createSolveSession, sourceOf, type SolverPort } from './solve-session.ts'

const CARD: ModelCard = {
  name: 'fake',
  parameters: 1000,
  sizeBytes: 4000,
  backend: 'wasm',
  weightsHash: 'ab'.repeat(32),
  trainable: false,
  source: 'test',
  vocabSize: 300,
  maxContext: 256,
}

const completion = (text: string, tokens: number) => ({
  text,
  tokenIds: Array.from({ length: tokens }, (_, i) => i),
  stop: 'eos' as const,
})

/** A solver that answers every task with `texts`, streaming them in two halves. */
function fakeSolver(
  texts: (prompt: string) => string[],
  loadError?: string,
): SolverPort & { cancelled: number[] } {
  const cancelled: number[] = []
  let id = 0
  return {
    cancelled,
    async load(_source, onProgress) {
      onProgress?.({ file: 'config.json', loadedBytes: 5, totalBytes: 10, fromCache: false })
      onProgress?.({ file: 'config.json', loadedBytes: 10, totalBytes: 10, fromCache: false })
      if (loadError) throw new Error(loadError)
      return CARD
    },
    generate(prompt, samples, _sampling, onDelta) {
      if (typeof prompt !== 'string') throw new TypeError('the Solve view sends the task text')
      const out = texts(prompt).slice(0, samples)
      const result: Promise<GenerateResult> = (async () => {
        out.forEach((t, i) => onDelta?.(i, t.slice(0, 3)))
        out.forEach((t, i) => onDelta?.(i, t.slice(3)))
        return { completions: out.map((t) => completion(t, 5)), tokensPerSecond: 50, firstTokenMs: 12 }
      })()
      return Object.assign(result, { requestId: ++id }) as GenerateCall
    },
    cancel(requestId) {
      cancelled.push(requestId)
    },
  }
}

const session = (solver: SolverPort) =>
  createSolveSession({
    solver: () => solver,
    runSandbox: async () => ({ verdict: { kind: 'pass', tests: 1 }, output: '', steps: 0, elapsedMs: 0 }),
    now: () => 1234,
  })

beforeEach(() =>
  solverStore.setState({
    choice: { kind: 'shipped' },
    model: { phase: 'idle' },
    settings: { ...DEFAULT_SETTINGS, family: 'reasoning/arithmetic', samples: 2 },
    task: null,
    taskError: null,
    run: null,
    batch: null,
    history: [],
  }),
)

describe('sourceOf', () => {
  it('resolves the shipped model and URLs against the page; a folder cannot be reopened', () => {
    const page = 'http://127.0.0.1:5173/#/solve'
    expect(sourceOf({ kind: 'shipped' }, page)).toEqual({
      kind: 'url',
      url: 'http://127.0.0.1:5173/models/tabswarm-tiny/',
    })
    expect(sourceOf({ kind: 'url', url: 'm/x/' }, page)).toEqual({
      kind: 'url',
      url: 'http://127.0.0.1:5173/m/x/',
    })
    expect(sourceOf({ kind: 'folder', name: 'x' }, page)).toBeUndefined()
  })
})

describe('solve session', () => {
  it('loads a model with per-file progress, then shows its card', async () => {
    const s = session(fakeSolver(() => []))
    await s.loadModel({ kind: 'url', url: 'x/' }, { kind: 'url', url: 'http://h/x/' })
    const { model, choice } = solverStore.getState()
    expect(choice).toEqual({ kind: 'url', url: 'x/' })
    expect(model).toEqual({
      phase: 'ready',
      card: CARD,
      files: [{ file: 'config.json', loadedBytes: 10, totalBytes: 10, fromCache: false }],
    })
  })

  it('keeps the load error as the model status', async () => {
    const s = session(fakeSolver(() => [], 'tokenizer.json is missing'))
    await s.loadModel({ kind: 'shipped' }, { kind: 'url', url: 'http://h/' })
    expect(solverStore.getState().model).toMatchObject({
      phase: 'error',
      message: 'tokenizer.json is missing',
    })
  })

  it('solves a task: streams, scores with the reward and records the history', async () => {
    const s = session(fakeSolver(() => ['<answer>nope</answer>', 'no tags at all']))
    await s.loadModel({ kind: 'shipped' }, { kind: 'url', url: 'http://h/' })
    s.drawCurrent()
    expect(await s.solve()).toBe(true)
    const { run, history } = solverStore.getState()
    expect(run?.phase).toBe('done')
    expect(run?.texts).toEqual(['<answer>nope</answer>', 'no tags at all'])
    // formatted but wrong: 0 + length bonus; unformatted: -1 + length bonus
    expect(run?.results.map((r) => r.reward.total)).toEqual([0.2, -0.8])
    expect(run?.passAt1).toBe(0)
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({
      rewards: [0.2, -0.8],
      formatted: 1,
      correct: 0,
      weightsHash: CARD.weightsHash,
    })
  })

  it('scores a correct answer as correct and counts pass@k', async () => {
    const s = session(fakeSolver(() => []))
    await s.loadModel({ kind: 'shipped' }, { kind: 'url', url: 'http://h/' })
    s.drawCurrent()
    const answer = (solverStore.getState().task as { answer: string }).answer
    const right = session(fakeSolver(() => [`<answer>${answer}</answer>`, 'x']))
    expect(await right.solve()).toBe(true)
    const { run } = solverStore.getState()
    expect(run?.results[0]!.reward).toEqual({ format: 0, correctness: 1, length: 0.2, total: 1.2 })
    expect(run?.passAt1).toBe(0.5)
    expect(run?.passAtK).toBe(1)
  })

  it('solves N tasks in a row with consecutive seeds', async () => {
    const s = session(fakeSolver(() => ['a', 'b']))
    await s.loadModel({ kind: 'shipped' }, { kind: 'url', url: 'http://h/' })
    await s.solveBatch(3)
    const { history, batch, settings } = solverStore.getState()
    expect(history.map((h) => h.seed)).toEqual([1, 2, 3])
    expect(settings.seed).toBe(3)
    expect(batch).toBeNull()
  })

  it('does not solve without a loaded model', async () => {
    const s = session(fakeSolver(() => ['a']))
    s.drawCurrent()
    expect(await s.solve()).toBe(false)
    expect(solverStore.getState().history).toEqual([])
  })

  it('names a bad task setting instead of drawing', () => {
    const s = session(fakeSolver(() => []))
    s.updateSettings({ family: 'poetry' })
    expect(solverStore.getState().taskError).toBe('unknown task family "poetry"')
    expect(solverStore.getState().task).toBeNull()
  })
})
