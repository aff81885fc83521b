// Hostile candidate code in a real tab: each kind scores as a failure with the right verdict within 1 s
// of its limit, nothing it does leaves the browser or touches the page and its storage, and the page
// stays responsive while the sandbox worker is busy.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test, type Browser, type Page, type Request } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { DEFAULT_LIMITS } from '../src/peer/sandbox/limits.ts'
import type { SandboxClient } from '../src/peer/sandbox/sandbox-client.ts'
import type { SandboxJob } from '../src/core/tasks/sandbox-job.ts'
import type { SandboxResult } from '../src/core/tasks/verdict.ts'
import { launchBrowser } from './browser.ts'

const PORTS = { relayPort: 19650, relayHttpPort: 19651, appPort: 19652 }
const LIMITS = DEFAULT_LIMITS
/** A verdict must come within 1 s of the limit that produced it. */
const SLACK_MS = 1_000
/**
 * the longest a trivial page.evaluate may take, and the page's event loop may lag, while the sandbox is
 * busy: a blocked main thread would take the whole 2 s deadline; 500 ms leaves room for a busy CI box
 */
const RESPONSIVE_MS = 500

let stack: Stack
let browser: Browser
let page: Page
/** every request the browser makes once the sandbox is warm */
const requests: string[] = []

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  stack = await startStack(PORTS)
  browser = await launchBrowser()
  const context = await browser.newContext()
  page = await context.newPage()
  await page.goto(`${stack.url}?debug`)
  // The debug hook appears once the tab is online; the worker then fetches and compiles the engine.
  await page.waitForFunction(() => globalThis.tabswarmSandbox !== undefined, undefined, { timeout: 30_000 })
  await page.evaluate(async () => {
    const sandbox = globalThis.tabswarmSandbox!()
    Object.assign(globalThis, { e2eSandbox: sandbox })
    await sandbox.warm()
  })
  const record = (r: Request) => requests.push(`${r.method()} ${r.url()}`)
  context.on('request', record)
  context.on('serviceworker', () => requests.push('a service worker started'))
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

interface PageRun extends SandboxResult {
  /** measured on the page, around the whole call */
  roundTripMs: number
  /** the longest the page's event loop was late for a 20 ms timer during the call */
  maxLagMs: number
}

function runInPage(job: SandboxJob, limits = LIMITS): Promise<PageRun> {
  return page.evaluate(
    async ({ job, limits }) => {
      const sandbox = (globalThis as unknown as { e2eSandbox: SandboxClient }).e2eSandbox
      let maxLagMs = 0
      let last = performance.now()
      const lagTimer = setInterval(() => {
        const now = performance.now()
        maxLagMs = Math.max(maxLagMs, now - last - 20)
        last = now
      }, 20)
      const started = performance.now()
      const result = await sandbox.run(job, limits)
      const roundTripMs = performance.now() - started
      clearInterval(lagTimer)
      return { ...result, roundTripMs, maxLagMs }
    },
    { job, limits },
  )
}

const job = (code: string): SandboxJob => ({
  code,
  tests: [{ expression: 'solve(20)', expected: '210' }],
})

test('correct code passes and wrong code fails, in the tab', async () => {
  const sum = 'function solve(n) { let s = 0; for (let i = 1; i <= n; i++) s += i; return s }'
  expect((await runInPage(job(sum))).verdict).toEqual({ kind: 'pass', tests: 1 })
  expect((await runInPage(job('const solve = (n) => n * n'))).verdict).toEqual({
    kind: 'fail',
    test: 0,
    expected: '210',
    actual: '400',
  })
})

test('an infinite loop runs out of steps, the same step on every run, well within its deadline', async () => {
  const runs = [await runInPage(job('function solve() { for (;;) {} }'))]
  runs.push(await runInPage(job('function solve() { for (;;) {} }')))
  for (const { verdict, steps, roundTripMs } of runs) {
    expect(verdict).toEqual({ kind: 'timeout', limit: 'steps' })
    expect(steps).toBe(LIMITS.maxSteps + 1)
    expect(roundTripMs).toBeLessThan(LIMITS.deadlineMs + SLACK_MS)
  }
  console.log(`loop: out of steps after ${runs.map((r) => Math.round(r.roundTripMs)).join(' / ')} ms`)
})

test('without a step budget, an infinite loop stops at its deadline while the page answers within 500 ms', async () => {
  const running = runInPage(job('for (;;) {}'), { ...LIMITS, maxSteps: Number.MAX_SAFE_INTEGER })
  const answers: number[] = []
  let settled = false
  void running.finally(() => (settled = true))
  while (!settled) {
    const started = Date.now()
    await page.evaluate(() => 1 + 1)
    answers.push(Date.now() - started)
    await page.waitForTimeout(100)
  }
  const { verdict, roundTripMs, maxLagMs } = await running
  expect(verdict).toEqual({ kind: 'timeout', limit: 'deadline' })
  expect(maxLagMs).toBeLessThan(RESPONSIVE_MS)
  expect(roundTripMs).toBeGreaterThanOrEqual(LIMITS.deadlineMs)
  expect(roundTripMs).toBeLessThan(LIMITS.deadlineMs + SLACK_MS)
  expect(answers.length).toBeGreaterThan(5)
  expect(Math.max(...answers)).toBeLessThan(RESPONSIVE_MS)
  console.log(
    `loop without step budget: deadline timeout after ${Math.round(roundTripMs)} ms; ` +
      `the page answered ${answers.length} times in ≤ ${Math.max(...answers)} ms, its event loop ` +
      `was late by ≤ ${Math.round(maxLagMs)} ms`,
  )
})

const hostile: [string, string, SandboxResult['verdict']['kind'], RegExp?][] = [
  ['a 2 GiB allocation', 'const memory = new Uint8Array(2 ** 31 - 1)', 'memory-limit'],
  [
    '2 GiB in 8 MiB blocks',
    'const blocks = []; while (true) blocks.push(new Float64Array(2 ** 20))',
    'memory-limit',
  ],
  [
    'a fetch',
    'fetch("http://127.0.0.1:19659/exfiltrate")',
    'error',
    /ReferenceError: 'fetch' is not defined/,
  ],
  ['an XMLHttpRequest', 'new XMLHttpRequest().open("GET", "/exfiltrate")', 'error', /ReferenceError/],
  ['a WebSocket', 'new WebSocket("ws://127.0.0.1:19659")', 'error', /ReferenceError/],
  ['the page document', 'document.body.innerHTML = "pwned"', 'error', /ReferenceError: 'document'/],
  ['the window', 'window.location = "http://127.0.0.1:19659/"', 'error', /ReferenceError: 'window'/],
  ['localStorage', 'localStorage.setItem("pwned", "1")', 'error', /ReferenceError: 'localStorage'/],
  ['indexedDB', 'indexedDB.open("pwned")', 'error', /ReferenceError: 'indexedDB'/],
  ['the worker scope', 'self.postMessage({ type: "result", id: 1 })', 'error', /ReferenceError: 'self'/],
  ['an output flood', 'for (;;) console.log("flood ".repeat(100))', 'output-limit'],
]

for (const [what, code, kind, message] of hostile) {
  test(`${what} scores ${kind}`, async () => {
    const { verdict, roundTripMs } = await runInPage({ code, tests: [] })
    expect(verdict.kind).toBe(kind)
    if (message) expect(verdict).toMatchObject({ message: expect.stringMatching(message) })
    expect(roundTripMs).toBeLessThan(LIMITS.deadlineMs + SLACK_MS)
    console.log(`${what}: ${kind} after ${Math.round(roundTripMs)} ms`)
  })
}

test('the page, its storage and the network were left alone', async () => {
  await expect(page.getByTestId('self-peer-id')).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('pwned'))).toBeNull()
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).not.toContain(
    'pwned',
  )
  expect(requests).toEqual([])
})

// Last, because the fresh worker fetches its script and the engine from the app (the only requests).
test('code that never reaches an interrupt check is stopped by killing the worker at deadline + grace', async () => {
  // QuickJS polls its interrupt handler every ~10 000 bytecode branches and never inside a builtin, so a
  // loop of slow builtin calls runs on past the deadline: only the main thread's hard stop ends it.
  const stuck = await runInPage(job('const a = new Array(1e6).fill(0); for (;;) a.fill(1)'))
  const hardStop = LIMITS.deadlineMs + LIMITS.killGraceMs
  expect(stuck.verdict).toEqual({ kind: 'timeout', limit: 'hard-stop' })
  expect(stuck.maxLagMs).toBeLessThan(RESPONSIVE_MS)
  expect(stuck.roundTripMs).toBeGreaterThanOrEqual(hardStop)
  expect(stuck.roundTripMs).toBeLessThan(hardStop + SLACK_MS)
  console.log(
    `builtin loop: hard stop after ${Math.round(stuck.roundTripMs)} ms; event loop late by ≤ ${Math.round(stuck.maxLagMs)} ms`,
  )

  const sum = 'function solve(n) { return (n * (n + 1)) / 2 }'
  expect((await runInPage(job(sum))).verdict).toEqual({ kind: 'pass', tests: 1 })
  const origin = new URL(stack.url).origin
  for (const request of requests) expect(request).toMatch(new RegExp(`^GET ${origin}/assets/`))
})
