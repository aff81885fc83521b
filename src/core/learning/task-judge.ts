// How a peer judges completions of its swarm's tasks with its own verifiers: the shaped reward the round
// loop trains on (CodeZero's: src/core/tasks/reward.ts) and plain correctness for held-out pass@1. Code
// tasks run in the sandbox the caller provides.
import type { SandboxJob } from '../tasks/sandbox-job.ts'
import type { SandboxResult } from '../tasks/verdict.ts'
import { CODEZERO_REWARD } from '../tasks/reward.ts'
import { scoreCode, scoreReasoning, type Scored } from '../tasks/score-completion.ts'
import type { Task } from '../tasks/task.ts'
import type { Scorer } from './swarm-round.ts'

export interface TaskJudge {
  score: Scorer
  /** whether `text` answers `task` correctly (held-out evaluation) */
  correct(task: Task, text: string, tokens: number): Promise<boolean>
}

/**
 * `maxTokens`: the sampling limit, so a completion cut off there gets the length term of the longest
 * answer. `runCode` runs code tasks' tests (a SandboxClient in a tab); without one a code task fails.
 */
export function createTaskJudge(
  maxTokens: number,
  runCode?: (job: SandboxJob) => Promise<SandboxResult>,
): TaskJudge {
  const config = { ...CODEZERO_REWARD, maxTokens }
  const scored = (task: Task, text: string, tokens: number): Promise<Scored> => {
    if (task.kind === 'reasoning') return Promise.resolve(scoreReasoning(task, text, tokens, config))
    if (!runCode) throw new Error(`a ${task.family} code task needs the sandbox, and this peer has none`)
    return scoreCode(task, text, tokens, runCode, config)
  }
  return {
    score: async (task, c, eos) =>
      (await scored(task, c.text, eos ? c.tokenIds.length : maxTokens)).reward.total,
    // a correct answer is the only way to a positive correctness part (CodeZero: incorrect scores 0)
    correct: async (task, text, tokens) => (await scored(task, text, tokens)).reward.correctness > 0,
  }
}
