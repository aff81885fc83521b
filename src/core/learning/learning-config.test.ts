import { describe, expect, it } from 'vitest'
import { parseSwarmConfig, swarmIdOf } from '../config/swarm-config.ts'
import { DEFAULT_LEARNING, parseLearningConfig } from './learning-config.ts'
import { SMALL_LEARNING } from './small-learning.ts'
import { taskFamilyExists } from '../protocol/task-ref.ts'

const base = {
  version: 1,
  name: 'test swarm',
  genesisTime: 1_800_000_000_000,
  roundLengthMs: 30_000,
  relays: [],
  iceServers: [],
}

describe('the learning section of a swarm config', () => {
  it('round-trips the defaults and leaves configs without it (and their ids) as they were', () => {
    expect(parseLearningConfig(JSON.parse(JSON.stringify(DEFAULT_LEARNING)), taskFamilyExists)).toEqual(
      DEFAULT_LEARNING,
    )
    const plain = parseSwarmConfig(base)
    expect(plain).not.toHaveProperty('learning')
    const learning = parseSwarmConfig({ ...base, learning: { ...DEFAULT_LEARNING, groupSize: 4 } })
    expect(learning.learning?.groupSize).toBe(4)
    // a different learning setup is a different swarm
    expect(swarmIdOf(learning)).not.toBe(swarmIdOf(plain))
  })

  it('defaults the model, window and eval cadence of a section written before they existed', () => {
    const { model, windowFraction, evalEvery, ...older } = DEFAULT_LEARNING
    const parsed = parseLearningConfig({ ...older, groupSize: 4 }, taskFamilyExists)
    expect(parsed).toMatchObject({ windowFraction, evalEvery, groupSize: 4 })
    // the model such a swarm learned then, not today's default: its meaning and swarm id stay
    expect(parsed.model).toBe('/models/tabswarm-tiny/')
    expect(model).toBe('/models/tabswarm-next/')
    const micro = { ...DEFAULT_LEARNING, model: 'https://example.org/models/tabswarm-micro/' }
    expect(parseLearningConfig(micro, taskFamilyExists).model).toBe(micro.model)
  })

  it('takes an optional KL weight, off by default, and leaves a 0 out of the swarm id', () => {
    expect(DEFAULT_LEARNING.grpo).not.toHaveProperty('klBeta')
    const grpo = (klBeta?: number) =>
      parseSwarmConfig({
        ...base,
        learning: { ...DEFAULT_LEARNING, grpo: { ...DEFAULT_LEARNING.grpo, klBeta } },
      })
    const off = parseSwarmConfig({ ...base, learning: DEFAULT_LEARNING })
    expect(grpo(0).learning?.grpo).not.toHaveProperty('klBeta')
    expect(swarmIdOf(grpo(0))).toBe(swarmIdOf(off))
    expect(grpo(0.04).learning?.grpo.klBeta).toBe(0.04)
    expect(swarmIdOf(grpo(0.04))).not.toBe(swarmIdOf(off))
  })

  it('takes an optional SAPO pick, uniform by default, and leaves uniform out of the swarm id', () => {
    const pick = (value?: string) =>
      parseSwarmConfig({
        ...base,
        learning: { ...SMALL_LEARNING, sapo: { ...SMALL_LEARNING.sapo, pick: value } },
      })
    const off = parseSwarmConfig({ ...base, learning: SMALL_LEARNING })
    expect(pick('uniform').learning?.sapo).not.toHaveProperty('pick')
    expect(swarmIdOf(pick('uniform'))).toBe(swarmIdOf(off))
    expect(pick('signal').learning?.sapo.pick).toBe('signal')
    expect(swarmIdOf(pick('signal'))).not.toBe(swarmIdOf(off))
    expect(pick('signal-by-cell').learning?.sapo.pick).toBe('signal-by-cell')
    expect(swarmIdOf(pick('signal-by-cell'))).not.toBe(swarmIdOf(pick('signal')))
    expect(() => pick('best')).toThrow('sapo.pick must be one of "uniform", "signal", "signal-by-cell"')
  })

  it('reads an older single difficulty as a one-level range, and refuses cells that cannot keep their share', () => {
    const { difficulties, ...rest } = SMALL_LEARNING
    expect(difficulties).toEqual({ min: 1, max: 2 })
    const older = parseLearningConfig({ ...rest, difficulty: 2 }, taskFamilyExists)
    expect(older.difficulties).toEqual({ min: 2, max: 2 })
    expect(older).not.toHaveProperty('difficulty')
    // the canonical form is the same whichever way the range was written: one swarm id
    const written = parseSwarmConfig({ ...base, learning: { ...rest, difficulties: { min: 2, max: 2 } } })
    expect(swarmIdOf(parseSwarmConfig({ ...base, learning: { ...rest, difficulty: 2 } }))).toBe(
      swarmIdOf(written),
    )
    expect(() => parseLearningConfig({ ...SMALL_LEARNING, difficulty: 1 }, taskFamilyExists)).toThrow(
      'replaces difficulty',
    )
    expect(() =>
      parseLearningConfig({ ...SMALL_LEARNING, difficulties: { min: 3, max: 2 } }, taskFamilyExists),
    ).toThrow('difficulties.max must be an integer in 3–5')
    // 6 families × 5 levels = 30 cells: 1 task per round cannot give each ⌈5/30⌉ = 1 of 20 rounds' 20
    const wide = {
      ...SMALL_LEARNING,
      difficulties: { min: 1, max: 5 },
      tasksPerRound: 1,
      sapo: { localGroups: 1, externalGroups: 1 },
    }
    expect(() => parseLearningConfig(wide, taskFamilyExists)).toThrow(
      '30 cells (sources × difficulties) cannot each keep',
    )
    expect(parseLearningConfig({ ...wide, tasksPerRound: 2 }, taskFamilyExists).difficulties).toEqual({
      min: 1,
      max: 5,
    })
  })

  it.each([
    [{ ...SMALL_LEARNING, model: 'javascript:alert(1)' }, 'learning: model must be a path on this origin'],
    [{ ...SMALL_LEARNING, model: '//evil.example/m/' }, 'learning: model must be a path on this origin'],
    [{ ...SMALL_LEARNING, windowFraction: 1 }, 'learning: windowFraction must be a number in 0.05–0.95'],
    [{ ...SMALL_LEARNING, evalEvery: 0 }, 'learning: evalEvery must be an integer'],
    [{ ...SMALL_LEARNING, groupSize: 1 }, 'learning: groupSize must be an integer in 2–16'],
    [{ ...SMALL_LEARNING, sources: [] }, 'learning: sources must list at least one task family'],
    [
      { ...SMALL_LEARNING, sources: [{ kind: 'reasoning', family: 'poetry' }] },
      'no reasoning task family "poetry"',
    ],
    [
      { ...SMALL_LEARNING, sources: [{ kind: 'code', family: 'arithmetic' }] },
      'no code task family "arithmetic"',
    ],
    [{ ...SMALL_LEARNING, sapo: { localGroups: 3, externalGroups: 2 } }, 'cannot exceed tasksPerRound'],
    [{ ...SMALL_LEARNING, grpo: { ...SMALL_LEARNING.grpo, clipEps: 1 } }, 'grpo.clipEps'],
    [
      { ...SMALL_LEARNING, grpo: { ...SMALL_LEARNING.grpo, klBeta: 1.5 } },
      'learning: grpo.klBeta must be a number in 0–1',
    ],
    [{ ...SMALL_LEARNING, grpo: { ...SMALL_LEARNING.grpo, klBeta: '0.1' } }, 'grpo.klBeta'],
    [{ ...SMALL_LEARNING, sampling: { ...SMALL_LEARNING.sampling, topP: 0 } }, 'sampling.topP'],
    ['nope', 'learning: not an object'],
  ])('refuses a bad section, naming the field (%#)', (learning, message) => {
    expect(() => parseSwarmConfig({ ...base, learning })).toThrow(message)
  })
})
