import { describe, expect, it, vi } from 'vitest'
import type { SwarmConfig } from '../core/config/swarm-config.ts'
import { DEFAULT_LEARNING } from '../core/learning/learning-config.ts'
import { nextRound, roundTimes } from '../core/learning/round-clock.ts'
import { learningStore } from './stores/learning-store.ts'
import { FEED_LIMIT, initialLearningState, type HeardRollout } from '../core/learning/learning-state.ts'
import type { InputsFile } from '../core/protocol/inputs-file.ts'
import type { Receipt } from '../core/protocol/receipt-schema.ts'
import { roundRow } from '../../test-support/train/round-row-fixture.ts'
import {
  adoptLearningClock,
  applyLearningEvent,
  learningClock,
  learningUpdate,
  resetLearning,
  type CoordinatorClockSource,
} from './start-learning.ts'

const heard = (i: number): HeardRollout => ({
  from: 'p',
  name: 'n',
  round: 1,
  family: 'arithmetic',
  prompt: 'q',
  answer: `a${i}`,
  claimedReward: 0,
  reward: 0,
  receivedAt: i,
})

describe('the learning store feed', () => {
  it('follows the phases, rounds, evaluations and model', () => {
    const s = initialLearningState()
    expect(
      learningUpdate(s, {
        type: 'learning-phase',
        phase: 'collecting',
        round: 4,
        roundEndsAt: 9,
        windowClosesAt: 7,
      }),
    ).toEqual({ phase: 'collecting', round: 4, roundEndsAt: 9, windowClosesAt: 7 })
    const row = roundRow(4)
    const peers = {
      p: { name: 'n', rounds: 1, lastRound: 4, rewardSum: 1, completions: 2, refused: 0, score: 1 },
    }
    expect(learningUpdate({ ...s, rounds: [roundRow(3)] }, { type: 'learning-round', row, peers })).toEqual({
      rounds: [roundRow(3), row],
      peers,
    })
    const point = { round: 4, policyVersion: 5, pass1: 0.5, tasks: 12 }
    expect(learningUpdate(s, { type: 'learning-eval', point })).toEqual({ evals: [point] })
    const model = { name: 'm', parameters: 10, weightsHash: 'h', policyVersion: 5 }
    expect(learningUpdate(s, { type: 'learning-model', model })).toEqual({ model })
  })

  it('keeps the feed newest first and capped', () => {
    const s = { ...initialLearningState(), feed: Array.from({ length: FEED_LIMIT }, (_, i) => heard(-i)) }
    const { feed } = learningUpdate(s, { type: 'learning-heard', rollouts: [heard(1), heard(2)] })
    expect(feed).toHaveLength(FEED_LIMIT)
    expect(feed!.slice(0, 3).map((h) => h.answer)).toEqual(['a2', 'a1', 'a0'])
  })

  it('says what went wrong, and only a fatal error stops the phase', () => {
    const s = { ...initialLearningState(), phase: 'training' as const }
    expect(learningUpdate(s, { type: 'learning-error', message: 'm', fatal: false })).toEqual({
      message: 'm',
    })
    expect(learningUpdate(s, { type: 'learning-error', message: 'm', fatal: true })).toEqual({
      phase: 'error',
      message: 'm',
    })
  })

  it('holds each degradation until its cause says it is over', () => {
    const s = { ...initialLearningState(), phase: 'training' as const }
    const full = learningUpdate(s, { type: 'learning-degraded', cause: 'history', message: 'disk full' })
    expect(full).toEqual({ degraded: { history: 'disk full' } })
    const both = learningUpdate(
      { ...s, ...full },
      { type: 'learning-degraded', cause: 'trainer', message: 'steps unsaved' },
    )
    expect(both).toEqual({ degraded: { history: 'disk full', trainer: 'steps unsaved' } })
    expect(
      learningUpdate({ ...s, ...both }, { type: 'learning-degraded', cause: 'history', message: null }),
    ).toEqual({ degraded: { trainer: 'steps unsaved' } })
  })

  it('feeds the store from worker events and ignores the others', () => {
    resetLearning(true)
    expect(learningStore.getState().phase).toBe('loading')
    const point = { round: 3, policyVersion: 2, pass1: 0.5, tasks: 10 }
    expect(applyLearningEvent({ type: 'learning-eval', point })).toBe(true)
    expect(applyLearningEvent({ type: 'left' })).toBe(false)
    expect(learningStore.getState().evals).toEqual([point])
    resetLearning(false)
    expect(learningStore.getState()).toMatchObject({ phase: 'off', evals: [] })
  })

  it('leaves our receipts to the received-receipts store, where they are kept once', () => {
    const receipt = { receiptHash: 'r' } as Receipt
    const inputs = {} as InputsFile
    expect(
      learningUpdate(learningStore.getState(), { type: 'learning-receipt', round: 2, receipt, inputs }),
    ).toEqual({})
  })
})

const COORDINATOR = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const CONFIG: SwarmConfig = {
  version: 1,
  name: 'test',
  genesisTime: Date.UTC(2026, 10, 30, 8, 0),
  roundLengthMs: 20_000,
  relays: [],
  iceServers: [],
  learning: DEFAULT_LEARNING,
}
/** a fake coordinator whose read gives `clock` (or fails with `clock`, an Error) */
const source = (clock: { genesisTime: number; roundLengthMs: number } | Error): CoordinatorClockSource => ({
  coordinator: COORDINATOR,
  read: () => (clock instanceof Error ? Promise.reject(clock) : Promise.resolve(clock)),
})

describe('the learning round clock', () => {
  it('runs on the coordinator’s clock when it differs from the config’s, and says so', async () => {
    const chain = { genesisTime: Date.UTC(2026, 10, 30, 7, 59), roundLengthMs: 30_000 }
    const { config, clockNote } = await learningClock(CONFIG, source(chain))
    expect(config).toEqual({ ...CONFIG, ...chain })
    expect(clockNote).toEqual({
      text: `round clock from the coordinator at ${COORDINATOR}: 30 s rounds from 2026-11-30T07:59:00.000Z (the swarm config says 20 s rounds from 2026-11-30T08:00:00.000Z)`,
      warn: false,
    })
    // the loop's rounds are the coordinator's: at 08:01 its round 4 runs, where the config's is round 3
    const now = Date.UTC(2026, 10, 30, 8, 1)
    const clock = { ...config, windowFraction: DEFAULT_LEARNING.windowFraction }
    expect(roundTimes(clock, nextRound(clock, now, undefined).round).start).toBe(
      chain.genesisTime + 4 * 30_000,
    )
  })

  it('keeps the config when the coordinator agrees with it, or there is none', async () => {
    const same = { genesisTime: CONFIG.genesisTime, roundLengthMs: CONFIG.roundLengthMs }
    expect(await learningClock(CONFIG, source(same))).toEqual({ config: CONFIG, clockNote: null })
    expect(await learningClock(CONFIG, null)).toEqual({ config: CONFIG, clockNote: null })
  })

  it('falls back to the config’s clock with a warning when the chain does not answer', async () => {
    const { config, clockNote } = await learningClock(CONFIG, source(new Error('fetch failed')))
    expect(config).toBe(CONFIG)
    expect(clockNote?.warn).toBe(true)
    expect(clockNote?.text).toContain(`The coordinator at ${COORDINATOR} did not answer (fetch failed)`)
    expect(clockNote?.text).toContain("rounds follow the swarm config's clock")
  })

  it('puts the note on the round card after the store was reset, and hands the worker its config', () => {
    resetLearning(true)
    const clockNote = { text: 'round clock from the coordinator at 0xc', warn: false }
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const config = { ...CONFIG, roundLengthMs: 30_000 }
    expect(adoptLearningClock({ config, clockNote })).toBe(config)
    expect(learningStore.getState().clockNote).toEqual(clockNote)
    expect(info).toHaveBeenCalledWith(`tabswarm: ${clockNote.text}`)
    info.mockRestore()
    resetLearning(true)
    expect(learningStore.getState().clockNote).toBeNull()
  })
})
