// Scores the G completions of one task with the project's reward (src/core/tasks/reward.ts): the family's
// verifier for reasoning tasks, the sandbox running the hidden tests for code tasks. The length term
// counts against the generation limit the completions were sampled with.
import type { SandboxJob } from '../../core/tasks/sandbox-job.ts'
import type { SandboxResult } from '../../core/tasks/verdict.ts'
import type { Completion } from '../../peer/solver/solver-protocol.ts'
import type { CompletionResult } from '../stores/solver-store.ts'
import { passAtK } from '../../core/tasks/pass-at-k.ts'
import { CODEZERO_REWARD, type RewardBreakdown } from '../../core/tasks/reward.ts'
import { scoreCode, scoreReasoning } from '../../core/tasks/score-completion.ts'
import type { Task } from '../../core/tasks/task.ts'

export type RunSandbox = (job: SandboxJob) => Promise<SandboxResult>

export interface ScoredTask {
  readonly results: CompletionResult[]
  readonly correct: number
  readonly formatted: number
  readonly passAt1: number
  /** pass@k with k = G, the number of completions */
  readonly passAtK: number
}

/** Correct: the verifier (or every hidden test) accepted the answer. */
export const isCorrect = (reward: RewardBreakdown): boolean => reward.correctness > 0
/** Formatted: the answer was where the task asked for it (no missing-format penalty). */
export const isFormatted = (reward: RewardBreakdown): boolean => reward.format === 0

export async function scoreCompletions(
  task: Task,
  completions: readonly Completion[],
  maxTokens: number,
  runSandbox: RunSandbox,
): Promise<ScoredTask> {
  const config = { ...CODEZERO_REWARD, maxTokens }
  const results: CompletionResult[] = []
  // one after another: the sandbox runs one job at a time anyway
  for (const c of completions) {
    const tokens = c.tokenIds.length
    const scored =
      task.kind === 'code'
        ? await scoreCode(task, c.text, tokens, runSandbox, config)
        : scoreReasoning(task, c.text, tokens, config)
    results.push({
      text: c.text,
      tokens,
      stop: c.stop,
      reward: scored.reward,
      ...(scored.verdict ? { verdict: scored.verdict.kind } : {}),
    })
  }
  const n = results.length
  const correct = results.filter((r) => isCorrect(r.reward)).length
  const formatted = results.filter((r) => isFormatted(r.reward)).length
  return {
    results,
    correct,
    formatted,
    passAt1: n > 0 ? passAtK(n, correct, 1) : 0,
    passAtK: n > 0 ? passAtK(n, correct, n) : 0,
  }
}
