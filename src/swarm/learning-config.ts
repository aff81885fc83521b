// What defines a learning swarm beyond its network: the task mix, G, SAPO's L/E, sampling and GRPO
// settings. It travels in the swarm config, so a researcher starts a new swarm by sharing a link.
import type { Difficulty } from '../tasks/task.ts'
import type { TaskSource } from './round-tasks.ts'
import { DEFAULT_SAPO, type SapoCounts } from './sapo-sampler.ts'

export interface LearningConfig {
  sources: TaskSource[]
  /** the level every peer starts at; the difficulty controller moves it */
  difficulty: Difficulty
  /** G: completions per task */
  groupSize: number
  /** tasks (groups) a peer generates per round */
  tasksPerRound: number
  sapo: SapoCounts
  sampling: { temperature: number; topK: number; topP: number; maxNewTokens: number }
  grpo: { lr: number; clipEps: number; maxGradNorm: number; weightDecay: number }
}

/** RL Swarm's reasoning-gym defaults scaled to a tab: G = 2, 2 own + 2 external groups per step. */
export const DEFAULT_LEARNING: Readonly<LearningConfig> = {
  sources: [
    { kind: 'reasoning', family: 'arithmetic' },
    { kind: 'reasoning', family: 'list-sorting' },
    { kind: 'reasoning', family: 'modular-arithmetic' },
  ],
  difficulty: 1,
  groupSize: 2,
  tasksPerRound: 2,
  sapo: DEFAULT_SAPO,
  sampling: { temperature: 1, topK: 0, topP: 1, maxNewTokens: 16 },
  grpo: { lr: 1e-3, clipEps: 0.2, maxGradNorm: 1, weightDecay: 0 },
}
