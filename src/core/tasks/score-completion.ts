// One completion of a task, scored: the verifier's findings and the shaped reward. Completions arrive
// from other peers' gossip too, so they are `unknown` until checked.
import { extractCode } from './extract-code.ts'
import { CODEZERO_REWARD, shapeReward, type RewardBreakdown, type RewardConfig } from './reward.ts'
import type { SandboxJob } from './sandbox-job.ts'
import type { SandboxResult, Verdict } from './verdict.ts'
import type { CodeTask, ReasoningTask } from './task.ts'
import { verifyReasoning } from './verify-reasoning.ts'

export interface Scored {
  reward: RewardBreakdown
  /** the sandbox's verdict, for code tasks whose completion had code */
  verdict?: Verdict
}

/** tokens: the completion's length in the solver's tokenizer, for the length term. */
export function scoreReasoning(
  task: ReasoningTask,
  completion: unknown,
  tokens: number,
  config: RewardConfig = CODEZERO_REWARD,
): Scored {
  if (typeof completion !== 'string') return { reward: shapeReward({ isString: false }, config) }
  return { reward: shapeReward({ isString: true, tokens, ...verifyReasoning(task, completion) }, config) }
}

/** run: the sandbox (a SandboxClient in the browser, a QuickJSSandbox in Node). */
export async function scoreCode(
  task: CodeTask,
  completion: unknown,
  tokens: number,
  run: (job: SandboxJob) => Promise<SandboxResult>,
  config: RewardConfig = CODEZERO_REWARD,
): Promise<Scored> {
  if (typeof completion !== 'string') return { reward: shapeReward({ isString: false }, config) }
  const code = extractCode(completion)
  if (code === undefined)
    return { reward: shapeReward({ isString: true, formatted: false, correct: false, tokens }, config) }
  const { verdict } = await run({ code, tests: task.tests })
  const correct = verdict.kind === 'pass'
  return { reward: shapeReward({ isString: true, formatted: true, correct, tokens }, config), verdict }
}
