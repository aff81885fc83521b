import { describe, expect, it } from 'vitest'
import type { SandboxJob } from '../../core/tasks/sandbox-job.ts'
import type { Verdict } from '../../core/tasks/verdict.ts'
import type { Completion } from '../../peer/solver/solver-protocol.ts'
import { codeProblem, generateCodeTask } from '../../core/tasks/generate-code-task.ts'
import { generateReasoningTask } from '../../core/tasks/generate-reasoning-task.ts'
import { scoreCompletions } from './score-run.ts'

const completion = (text: string, tokens: number, stop: Completion['stop'] = 'eos'): Completion => ({
  text,
  tokenIds: Array.from({ length: tokens }, () => 1),
  stop,
})

describe('scoreCompletions', () => {
  it('scores code in the sandbox with the hidden tests; a completion without code never reaches it', async () => {
    const task = generateCodeTask('digit-sum', 1, 3)
    const { solution } = codeProblem('digit-sum', 1, 3)
    const jobs: SandboxJob[] = []
    const verdicts: Verdict[] = [{ kind: 'pass', tests: task.tests.length }]
    const scored = await scoreCompletions(
      task,
      [completion(`\`\`\`javascript\n${solution}\n\`\`\``, 30), completion('no code here', 10)],
      64,
      async (job) => {
        jobs.push(job)
        return { verdict: verdicts.shift()!, output: '', steps: 1, elapsedMs: 1 }
      },
    )
    expect(jobs).toHaveLength(1)
    expect(jobs[0]!.tests).toEqual(task.tests)
    expect(jobs[0]!.code.trim()).toBe(solution)
    expect(scored.results.map((r) => r.reward.total)).toEqual([1.2, -0.8])
    expect(scored.results[0]!.verdict).toBe('pass')
    expect(scored).toMatchObject({ correct: 1, formatted: 1, passAt1: 0.5, passAtK: 1 })
  })

  it('counts the length term against the limit the completions were sampled with', async () => {
    const task = generateReasoningTask('arithmetic', 1, 5)
    const scored = await scoreCompletions(
      task,
      [
        completion(`<answer>${task.answer}</answer>`, 16, 'max-tokens'),
        completion(`<answer>${task.answer}</answer>`, 15),
      ],
      16,
      () => Promise.reject(new Error('reasoning tasks need no sandbox')),
    )
    expect(scored.results.map((r) => r.reward)).toEqual([
      { format: 0, correctness: 1, length: -0.2, total: 0.8 },
      { format: 0, correctness: 1, length: 0.2, total: 1.2 },
    ])
  })
})
