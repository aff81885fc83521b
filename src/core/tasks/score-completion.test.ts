import { beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from '../../peer/sandbox/limits.ts'
import { QuickJSSandbox } from '../../peer/sandbox/quickjs-sandbox.ts'
import { compileQuickJSFromPackage } from '../../peer/sandbox/quickjs-wasm-node.ts'
import type { SandboxJob } from './sandbox-job.ts'
import { codeProblem, generateCodeTask } from './generate-code-task.ts'
import { generateReasoningTask } from './generate-reasoning-task.ts'
import { CODEZERO_REWARD } from './reward.ts'
import { scoreCode, scoreReasoning } from './score-completion.ts'

let sandbox: QuickJSSandbox
const run = (job: SandboxJob) => sandbox.run(job, DEFAULT_LIMITS)
beforeAll(async () => {
  sandbox = await QuickJSSandbox.load(compileQuickJSFromPackage)
})

const fenced = (code: string) => `Here is my solution:\n\`\`\`javascript\n${code}\n\`\`\`\n`

describe('scoreReasoning', () => {
  const task = generateReasoningTask('fraction-simplification', 2, 8)

  it('gives the CodeZero reward for each kind of completion', () => {
    expect(scoreReasoning(task, `<answer>${task.answer}</answer>`, 12).reward.total).toBeCloseTo(1.2, 12)
    expect(scoreReasoning(task, '<answer>1/1000</answer>', 12).reward.total).toBeCloseTo(0.2, 12)
    expect(scoreReasoning(task, task.answer, 12).reward.total).toBeCloseTo(-0.8, 12)
    expect(scoreReasoning(task, `<answer>${task.answer}</answer>`, 256).reward.total).toBeCloseTo(0.8, 12)
    expect(scoreReasoning(task, 42, 1).reward.total).toBe(-1.2)
  })

  it('uses the weights it is given', () => {
    const config = { ...CODEZERO_REWARD, lengthBonus: 0, correct: 5 }
    expect(scoreReasoning(task, `<answer>${task.answer}</answer>`, 12, config).reward.total).toBe(5)
  })
})

describe('scoreCode', () => {
  const task = generateCodeTask('sum-of-multiples', 2, 3)
  const { solution } = codeProblem('sum-of-multiples', 2, 3)

  it('rewards a correct, short, fenced answer with 1.2', async () => {
    const scored = await scoreCode(task, fenced(solution), 80, run)
    expect(scored.verdict).toEqual({ kind: 'pass', tests: task.tests.length })
    expect(scored.reward.total).toBeCloseTo(1.2, 12)
  })

  it('scores hostile and wrong code as incorrect, with the sandbox verdict', async () => {
    const loop = await scoreCode(task, fenced('function sumOfMultiples() { for (;;) {} }'), 40, run)
    expect(loop.verdict).toMatchObject({ kind: 'timeout' })
    expect(loop.reward).toMatchObject({ correctness: 0, total: 0.2 })
    const wrong = await scoreCode(task, fenced('const sumOfMultiples = (n) => n'), 300, run)
    expect(wrong.verdict).toMatchObject({ kind: 'fail' })
    expect(wrong.reward.total).toBeCloseTo(-0.2, 12)
  })

  it('penalises a missing code block, and a non-string, without running anything', async () => {
    const unformatted = await scoreCode(task, solution, 80, () => Promise.reject(new Error('must not run')))
    expect(unformatted).toEqual({ reward: { format: -1, correctness: 0, length: 0.2, total: -0.8 } })
    const garbage = await scoreCode(task, { evil: true }, 0, () => Promise.reject(new Error('must not run')))
    expect(garbage.reward.total).toBe(-1.2)
  })
})
