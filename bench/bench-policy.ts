// The policy a bench trains, and the groups it samples: a peer's reproducible policy on a bench
// model (the worker's Adam moments), and G scored completions per task as a peer scores its own.
// Shared by the benches that train outside the swarm round (step-direction, transfer) and the
// swarm-vs-solo arms, so each measures the same policy.
import type { GrpoConfig } from '../src/compute/model/grpo-step.ts'
import type { LearningConfig } from '../src/core/learning/learning-config.ts'
import { createReproduciblePolicy, type ReproduciblePolicy } from '../src/peer/peer/reproducible-policy.ts'
import type { TokenizedGroup } from '../src/core/learning/tokenized-group.ts'
import { ADAM_MOMENTS } from '../src/compute/proof/work-params.ts'
import { CODEZERO_REWARD } from '../src/core/tasks/reward.ts'
import { scoreReasoning } from '../src/core/tasks/score-completion.ts'
import type { ReasoningTask } from '../src/core/tasks/task.ts'
import { scheduledLr, type BenchModel, type LrSchedule } from './swarm-vs-solo-arms.ts'

export interface BenchPolicyOptions {
  readonly sampling: LearningConfig['sampling']
  readonly grpo: Omit<GrpoConfig, keyof typeof ADAM_MOMENTS>
  /** optimizer steps per batch (absent: 1) */
  readonly epochs?: number
  /** the lr over the policy's steps, from `grpo.lr` (absent: `grpo.lr` throughout) */
  readonly lrSchedule?: LrSchedule
}

export function benchPolicy(
  model: BenchModel,
  { sampling, grpo, epochs, lrSchedule }: BenchPolicyOptions,
): ReproduciblePolicy {
  return createReproduciblePolicy({
    config: model.config,
    params: model.params,
    tokenizer: model.tokenizer,
    promptTemplate: model.manifest.promptTemplate,
    eosId: model.eosId,
    sampling,
    grpo: { ...grpo, ...ADAM_MOMENTS },
    epochs,
    ...(lrSchedule ? { lrAt: (step: number) => scheduledLr(grpo.lr, lrSchedule, step) } : {}),
  })
}

/** A completion's reward as a peer scores its own: CodeZero's, with the length bonus over maxTokens. */
export function scoreOwn(
  task: ReasoningTask,
  text: string,
  tokens: number | undefined,
  maxTokens: number,
): number {
  const reward = { ...CODEZERO_REWARD, maxTokens }
  return scoreReasoning(task, text, tokens ?? maxTokens, reward).reward.total
}

/** G fresh completions of every task under `policy`, scored (task t samples under `${key}/${t}`). */
export async function sampleScoredGroups(
  policy: ReproduciblePolicy,
  tasks: readonly ReasoningTask[],
  groupSize: number,
  maxTokens: number,
  key: string,
): Promise<{ groups: TokenizedGroup[]; meanReward: number }> {
  const groups: TokenizedGroup[] = []
  let sum = 0
  const requests = tasks.map((task, t) => ({
    promptIds: policy.promptIds(task),
    samples: groupSize,
    key: `${key}/${t}`,
  }))
  const sampled = await policy.sampleMany!(requests)
  for (const [t, task] of tasks.entries()) {
    const { promptIds } = requests[t]!
    const completions = sampled[t]!
    const rewards = completions.map((c) =>
      scoreOwn(task, c.text, c.eos ? c.tokenIds.length : undefined, maxTokens),
    )
    sum += rewards.reduce((a, b) => a + b, 0)
    groups.push({ promptIds, completions: completions.map((c) => c.tokenIds), rewards })
  }
  return { groups, meanReward: sum / (tasks.length * groupSize) }
}
