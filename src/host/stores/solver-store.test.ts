import { describe, expect, it } from 'vitest'
import {
  HISTORY_KEPT,
  appendHistory,
  fileFraction,
  startedRun,
  withDelta,
  withProgress,
  type HistoryRow,
} from './solver-store.ts'

const progress = (file: string, loadedBytes: number, totalBytes?: number, fromCache = false) => ({
  file,
  loadedBytes,
  totalBytes,
  fromCache,
})

const row = (seed: number): HistoryRow => ({
  taskId: `t${seed}`,
  family: 'arithmetic',
  difficulty: 1,
  seed,
  rewards: [0.2, -0.8],
  correct: 0,
  formatted: 1,
  passAt1: 0,
  tokensPerSecond: 100,
  weightsHash: 'ab',
  solvedAt: seed,
})

describe('withProgress', () => {
  it('adds new files in arrival order and replaces a file by its latest event', () => {
    let files = withProgress([], progress('config.json', 10, 10))
    files = withProgress(files, progress('onnx/model.onnx', 5, 100))
    files = withProgress(files, progress('onnx/model.onnx', 100, 100, true))
    expect(files).toEqual([progress('config.json', 10, 10), progress('onnx/model.onnx', 100, 100, true)])
  })
})

describe('fileFraction', () => {
  it('is loaded/total, capped at 1; unknown sizes count half once started; empty files are done', () => {
    expect(fileFraction(progress('a', 25, 100))).toBe(0.25)
    expect(fileFraction(progress('a', 200, 100))).toBe(1)
    expect(fileFraction(progress('a', 0))).toBe(0)
    expect(fileFraction(progress('a', 7))).toBe(0.5)
    expect(fileFraction(progress('a', 0, 0))).toBe(1)
  })
})

describe('appendHistory', () => {
  it('appends and keeps only the newest HISTORY_KEPT rows', () => {
    let history: HistoryRow[] = []
    for (let i = 0; i < HISTORY_KEPT + 3; i++) history = appendHistory(history, row(i))
    expect(history).toHaveLength(HISTORY_KEPT)
    expect(history[0]!.seed).toBe(3)
    expect(history.at(-1)!.seed).toBe(HISTORY_KEPT + 2)
  })
})

describe('withDelta', () => {
  it('grows the text of the sample the delta belongs to, even past the announced count', () => {
    let run = startedRun('t', 2)
    run = withDelta(run, 1, 'he')
    run = withDelta(run, 1, 'llo')
    run = withDelta(run, 3, 'x')
    expect(run.texts).toEqual(['', 'hello', '', 'x'])
    expect(run.phase).toBe('generating')
  })
})
