import { beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS, type SandboxLimits } from './limits.ts'
import { QuickJSSandbox } from './quickjs-sandbox.ts'
import { compileQuickJSFromPackage } from './quickjs-wasm-node.ts'
import type { SandboxJob } from '../../core/tasks/sandbox-job.ts'

let sandbox: QuickJSSandbox
beforeAll(async () => {
  sandbox = await QuickJSSandbox.load(compileQuickJSFromPackage)
})

/** A deadline short enough for a fast suite; steps effectively unlimited unless a test sets them. */
const LIMITS: SandboxLimits = { ...DEFAULT_LIMITS, deadlineMs: 500, maxSteps: Number.MAX_SAFE_INTEGER }

const ADD = 'function add(a, b) { return a + b }'
const addTests = [
  { expression: 'add(1, 2)', expected: '3' },
  { expression: 'add(-5, 5)', expected: '0' },
]
const run = (code: string, tests: SandboxJob['tests'] = addTests, limits = LIMITS) =>
  sandbox.run({ code, tests }, limits)

describe('runInQuickJS', () => {
  it('passes correct code', async () => {
    expect((await run(ADD)).verdict).toEqual({ kind: 'pass', tests: 2 })
  })

  it('names the first failing test, with expected and actual JSON', async () => {
    const { verdict } = await run('function add(a, b) { return a > 0 ? a + b : a - b }')
    expect(verdict).toEqual({ kind: 'fail', test: 1, expected: '0', actual: '-10' })
  })

  it('compares structured values by their JSON text', async () => {
    const tests = [{ expression: 'pairs([1, 2])', expected: '[[1,2],[2,1]]' }]
    const code = 'const pairs = (xs) => xs.map((x, i) => [x, xs[xs.length - 1 - i]])'
    expect((await run(code, tests)).verdict).toEqual({ kind: 'pass', tests: 1 })
    expect((await run('const pairs = () => undefined', tests)).verdict).toMatchObject({ actual: 'undefined' })
  })

  it('reports syntax errors and exceptions, with the test that threw', async () => {
    expect((await run('function add(a, b) {')).verdict).toMatchObject({
      kind: 'error',
      message: /^SyntaxError/,
    })
    const { verdict } = await run(
      'function add(a, b) { if (a < 0) throw new TypeError("negative"); return a + b }',
    )
    expect(verdict).toEqual({ kind: 'error', message: 'TypeError: negative', test: 1 })
    expect((await run('throw 42')).verdict).toEqual({ kind: 'error', message: 'thrown: 42' })
  })

  it('keeps the original JSON.stringify for scoring', async () => {
    const { verdict } = await run('function add() { return 0 }; JSON.stringify = () => "3"')
    expect(verdict).toMatchObject({ kind: 'fail', test: 0, actual: '0' })
  })

  it('stops an infinite loop at the deadline', async () => {
    const { verdict, elapsedMs } = await run('for (;;) {}')
    expect(verdict).toEqual({ kind: 'timeout', limit: 'deadline' })
    expect(elapsedMs).toBeGreaterThanOrEqual(LIMITS.deadlineMs - 1)
    expect(elapsedMs).toBeLessThan(LIMITS.deadlineMs + 1_000)
  })

  it('stops an infinite loop at the same step on every run, and a caught interrupt stays stopped', async () => {
    const limits = { ...DEFAULT_LIMITS, maxSteps: 300, deadlineMs: 10_000 }
    const looping = 'let i = 0; for (;;) { try { for (;;) i++ } catch (e) { console.log("caught", i) } }'
    const runs = await Promise.all([1, 2, 3].map(() => run(looping, addTests, limits)))
    for (const r of runs) expect(r.verdict).toEqual({ kind: 'timeout', limit: 'steps' })
    expect(new Set(runs.map((r) => r.output)).size).toBe(1)
    expect(runs[0]!.steps).toBe(301)
  })

  it('reports a timeout inside a test call', async () => {
    const { verdict } = await run('function add() { while (true) {} }')
    expect(verdict).toEqual({ kind: 'timeout', limit: 'deadline' })
  })

  it.each([
    ['one 2 GiB typed array', 'new Uint8Array(2 ** 31 - 1)'],
    [
      '2 GiB in 64 MiB blocks',
      'const blocks = []; for (let i = 0; i < 32; i++) blocks.push(new Uint8Array(2 ** 26))',
    ],
    ['8 MB arrays allocated without end', 'const all = []; for (;;) all.push(new Float64Array(1e6))'],
    ['small objects allocated without end', 'const all = []; for (;;) all.push([1, 2, 3, 4])'],
  ])('reports memory-limit for %s', async (_, code) => {
    // Memory, not time, must stop these: a small heap keeps them quick, a long deadline out of the way.
    const limits = { ...LIMITS, memoryBytes: 16 * 1024 * 1024, deadlineMs: 10_000 }
    const { verdict, elapsedMs } = await run(code, addTests, limits)
    expect(verdict).toEqual({ kind: 'memory-limit' })
    expect(elapsedMs).toBeLessThan(limits.deadlineMs)
  })

  it('reports deep recursion as an error, not a crash of the host', async () => {
    const { verdict } = await run('function add(a, b) { return add(a, b) }')
    expect(verdict).toEqual({ kind: 'error', message: 'InternalError: stack overflow', test: 0 })
  })

  it.each([
    'fetch',
    'XMLHttpRequest',
    'process',
    'window',
    'document',
    'localStorage',
    'indexedDB',
    'require',
    'Date',
    'setTimeout',
    'WebAssembly',
    'importScripts',
    'postMessage',
  ])('gives the guest no %s', async (name) => {
    const tests = [{ expression: `typeof globalThis.${name}`, expected: '"undefined"' }]
    expect((await run('', tests)).verdict).toEqual({ kind: 'pass', tests: 1 })
    const { verdict } = await run(`${name}.call()`)
    expect(verdict).toEqual({ kind: 'error', message: `ReferenceError: '${name}' is not defined` })
  })

  it('cannot reach the host through the Function constructor', async () => {
    const tests = [
      {
        expression: 'Function("return typeof fetch + typeof process + typeof self")()',
        expected: '"undefinedundefinedundefined"',
      },
    ]
    expect((await run('', tests)).verdict).toEqual({ kind: 'pass', tests: 1 })
  })

  it('stops an output flood and keeps the output at the cap', async () => {
    const limits = { ...LIMITS, outputChars: 1_000 }
    for (const code of [
      'for (;;) console.log("spam")',
      'console.log("x".repeat(5000)); function add(a, b) { return a + b }',
    ]) {
      const { verdict, output } = await run(code, addTests, limits)
      expect(verdict).toEqual({ kind: 'output-limit' })
      expect(output.length).toBe(1_000)
    }
  })

  it('keeps console output under the cap', async () => {
    const { verdict, output } = await run(`${ADD}; console.log("sum", add(1, 2), [1, 2])`)
    expect(verdict).toEqual({ kind: 'pass', tests: 2 })
    expect(output).toBe('sum 3 1,2\n')
  })

  it('draws the same Math.random numbers on every run', async () => {
    const tests = [{ expression: '[Math.random(), Math.random()]', expected: '[0.5,0.5]' }]
    const [a, b] = await Promise.all([run('', tests), run('', tests)])
    expect(a!.verdict.kind).toBe('fail')
    expect(a!.verdict).toEqual(b!.verdict)
  })

  it('gives the same verdict on repeated runs of every kind of code', async () => {
    const codes = [
      ADD,
      'function add() { return 1 }',
      'syntax error(',
      'for (;;) {}',
      'new Uint8Array(2 ** 31 - 1)',
      'for (;;) console.log(1)',
    ]
    const limits = { ...LIMITS, maxSteps: 200, deadlineMs: 5_000 }
    for (const code of codes) {
      const first = await run(code, addTests, limits)
      const second = await run(code, addTests, limits)
      expect(second.verdict).toEqual(first.verdict)
      expect(second.steps).toBe(first.steps)
    }
  })
})
