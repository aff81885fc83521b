// Every code template at every difficulty: the tasks are deterministic, the reference solution passes the
// hidden tests in the sandbox, and code that only knows the prompt's example does not.
import { beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from '../../peer/sandbox/limits.ts'
import { QuickJSSandbox } from '../../peer/sandbox/quickjs-sandbox.ts'
import { compileQuickJSFromPackage } from '../../peer/sandbox/quickjs-wasm-node.ts'
import type { SandboxJob } from './sandbox-job.ts'
import { CODE_TEMPLATES } from './code-templates.ts'
import { codeProblem, generateCodeTask } from './generate-code-task.ts'
import { DIFFICULTIES } from './task.ts'

let sandbox: QuickJSSandbox
const run = (job: SandboxJob) => sandbox.run(job, DEFAULT_LIMITS)
beforeAll(async () => {
  sandbox = await QuickJSSandbox.load(compileQuickJSFromPackage)
})

describe.each(CODE_TEMPLATES.map((t) => t.name))('%s', (name) => {
  it.each(DIFFICULTIES)(
    'difficulty %i: the solution passes and a memorised example fails',
    async (difficulty) => {
      for (const seed of [0, 1, 2]) {
        const task = generateCodeTask(name, difficulty, seed)
        expect(task.id).toMatch(/^[0-9a-f]{64}$/)
        expect(task.tests).toHaveLength(3 + difficulty)
        expect(task.prompt).toContain(`\`${task.entryPoint}(`)
        const { solution, calls } = codeProblem(name, difficulty, seed)
        expect(await run({ code: solution, tests: task.tests })).toMatchObject({
          verdict: { kind: 'pass', tests: task.tests.length },
        })
        const memorised = `function ${task.entryPoint}() { return ${JSON.stringify(calls[0]!.expected)} }`
        expect((await run({ code: memorised, tests: task.tests })).verdict.kind).toBe('fail')
      }
    },
  )

  it('gives the same task for the same template, difficulty and seed', () => {
    expect(generateCodeTask(name, 4, 9)).toEqual(generateCodeTask(name, 4, 9))
    expect(generateCodeTask(name, 4, 9).id).not.toBe(generateCodeTask(name, 4, 10).id)
  })
})

describe('code tasks', () => {
  it('keep their ids across versions and platforms', () => {
    const ids = CODE_TEMPLATES.map((t) => generateCodeTask(t.name, 2, 42)).map(
      (t) => `${t.family} ${t.id.slice(0, 16)}`,
    )
    expect(ids).toMatchInlineSnapshot(`
      [
        "sum-of-multiples f49ff32ba7bb3116",
        "count-characters 7f82ca1000e0c0ef",
        "rotate-list 94a8220a6406b5c7",
        "digit-sum 9dd8ca49859db93f",
        "run-length 33df15705fb064fa",
      ]
    `)
  })

  it('refuse an unknown template', () => {
    expect(() => generateCodeTask('quine', 1, 1)).toThrow(/unknown code task template "quine"/)
  })
})
