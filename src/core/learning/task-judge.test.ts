import { describe, expect, it } from 'vitest'
import { CODE_TEMPLATES } from '../tasks/code-templates.ts'
import { generateCodeTask } from '../tasks/generate-code-task.ts'
import { generateReasoningTask } from '../tasks/generate-reasoning-task.ts'
import { createTaskJudge } from './task-judge.ts'

const task = generateReasoningTask('arithmetic', 1, 3)
const right = `<answer>${task.answer}</answer>`

describe('the task judge', () => {
  it('scores with the CodeZero shape and the sampling limit as the length limit', async () => {
    const judge = createTaskJudge(16)
    const ids = (n: number) => Array.from({ length: n }, () => 1)
    expect(await judge.score(task, { text: right, tokenIds: ids(5) }, true)).toBeCloseTo(1.2)
    // cut off at the limit: the length penalty, however few tokens it holds
    expect(await judge.score(task, { text: right, tokenIds: ids(5) }, false)).toBeCloseTo(0.8)
    expect(await judge.score(task, { text: 'no tags', tokenIds: ids(2) }, true)).toBeCloseTo(-0.8)
    expect(await judge.correct(task, right, 5)).toBe(true)
    expect(await judge.correct(task, '<answer>nope</answer>', 5)).toBe(false)
  })

  it('runs code tasks in the given sandbox, and says so when there is none', async () => {
    const code = generateCodeTask(CODE_TEMPLATES[0]!.name, 1, 1)
    const completion = { text: '```js\nfunction f() {}\n```', tokenIds: [1, 2] }
    const jobs: unknown[] = []
    const judge = createTaskJudge(16, async (job) => {
      jobs.push(job)
      return { verdict: { kind: 'pass' } } as never
    })
    expect(await judge.score(code, completion, true)).toBeCloseTo(1.2)
    expect(jobs).toEqual([{ code: 'function f() {}\n', tests: code.tests }])
    await expect(createTaskJudge(16).score(code, completion, true)).rejects.toThrow('needs the sandbox')
  })
})
