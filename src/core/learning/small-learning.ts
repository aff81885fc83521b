// Test fixture: a small learning swarm whose rounds a unit test runs in milliseconds — the tiny model on
// every reasoning family at difficulties 1–2, 2 tasks of G = 2 a round, 2 own + 2 heard groups trained.
// The tab's recipe is DEFAULT_LEARNING; tests of round mechanics keep to this one so that a change of
// recipe does not change what they exercise.
import { REASONING_FAMILIES } from '../tasks/reasoning-families.ts'
import { DEFAULT_LEARNING, type LearningConfig } from './learning-config.ts'

export const SMALL_LEARNING: Readonly<LearningConfig> = {
  ...DEFAULT_LEARNING,
  model: '/models/tabswarm-tiny/',
  sources: REASONING_FAMILIES.map((f) => ({ kind: 'reasoning' as const, family: f.name })),
  difficulties: { min: 1, max: 2 },
  groupSize: 2,
  tasksPerRound: 2,
  sapo: { localGroups: 2, externalGroups: 2 },
  sampling: { ...DEFAULT_LEARNING.sampling, maxNewTokens: 48 },
}
