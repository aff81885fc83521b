// Learning you can watch in the tab (issue 19 §5): three headless Chromium tabs join the swarm `npm start`
// serves (relay and app on loopback, the default learning config, no chain: rewards on chain are not what
// this measures) and learn for --minutes. Then each tab's Train view exports its history as a person would
// (Export JSON) and the bench reports, per tab and over the tabs: held-out pass@1 at the first and the last
// evaluation with their 95 % intervals, the share of rounds whose step had a policy-gradient term (some
// group's rewards differ: a KL term alone does not count), rounds skipped, and step time. A screenshot of
// each tab's Train view lands beside the JSON. Not a test: it takes as long as it is told to.
//   node --import ./src/polyfills/register.js bench/tab-learning.ts [--minutes 30] [--tabs 3] [--name tab-learning]
import '../src/polyfills/promise-with-resolvers.ts'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { Page } from '@playwright/test'
import { buildWhenStale } from '../src/node/cli/app-build.ts'
import { startStack } from '../src/node/cli/stack.ts'
import type { EvalPoint, RoundRow } from '../src/core/learning/learning-state.ts'
import { DEFAULT_LEARNING } from '../src/core/learning/learning-config.ts'
import { launchBrowser } from '../e2e/browser.ts'
import { fmt, percentile, positiveInt, printTable, writeResults, type Row } from './stats.ts'

const PORTS = { relayPort: 18300, relayHttpPort: 18301, appPort: 18302 }
const results = fileURLToPath(new URL('./results/', import.meta.url))
const root = fileURLToPath(new URL('../', import.meta.url))
/** How often progress is printed while the tabs learn. */
const PROGRESS_MS = 60_000

interface Export {
  rounds: RoundRow[]
  evals: EvalPoint[]
}

/** What the Train view's "Export JSON" button saves, read back. */
async function exportHistory(page: Page): Promise<Export> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('train-export-json').click(),
  ])
  return JSON.parse(await readFile(await download.path(), 'utf8')) as Export
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

/** One tab's learning, from its own history. */
function summarise(tab: number, { rounds, evals }: Export) {
  const run = rounds.filter((r) => r.skipped === undefined)
  const first = evals[0]
  const last = evals.at(-1)
  const steps = run.map((r) => r.stepMs).filter((ms): ms is number => ms !== undefined)
  return {
    tab,
    rounds: rounds.length,
    skipped: rounds.length - run.length,
    skippedWhy: rounds.flatMap((r) => (r.skipped === undefined ? [] : [r.skipped])),
    // rounds whose step had some group with rewards that differ: its policy-gradient term is non-zero
    withSignal: run.filter((r) => (r.trainedOn.informative ?? 0) > 0).length,
    evaluations: evals.length,
    passAt1: {
      start: first && { round: first.round, pass: first.pass1, ci95: first.ci95, tasks: first.tasks },
      end: last && { round: last.round, pass: last.pass1, ci95: last.ci95, tasks: last.tasks },
    },
    stepMs: { median: percentile(steps, 50), p90: percentile(steps, 90) },
    tokensPerSecond: percentile(
      run.map((r) => r.tokensPerSecond).filter((t): t is number => t !== undefined),
      50,
    ),
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '30' },
      tabs: { type: 'string', default: '3' },
      name: { type: 'string', default: 'tab-learning' },
    },
  })
  const minutes = positiveInt(values.minutes, 'minutes')
  const tabCount = positiveInt(values.tabs, 'tabs')
  // the app as npm start serves it: built first when dist/ is missing or older than its sources
  await buildWhenStale(root, 'dist')
  // the config npm start serves (src/node/cli/start.ts): a learning swarm on the shipped model
  const stack = await startStack({ ...PORTS, config: { learning: DEFAULT_LEARNING } })
  const browser = await launchBrowser()
  try {
    const pages = await Promise.all(
      Array.from({ length: tabCount }, async () => {
        const page = await (await browser.newContext({ viewport: { width: 1280, height: 1600 } })).newPage()
        await page.goto(`${stack.url}#/train`)
        return page
      }),
    )
    const started = Date.now()
    const until = started + minutes * 60_000
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, Math.min(PROGRESS_MS, until - Date.now())))
      const states = await Promise.all(
        pages.map(async (p) => {
          // a progress line only: a tab still loading (or busy past the poll) reads as '?', never ends the run
          const poll = { timeout: 5_000 }
          const round = await p
            .getByTestId('learning-status')
            .getAttribute('data-round', poll)
            .catch(() => null)
          const evals = await p
            .getByTestId('train-evals-count')
            .textContent(poll)
            .catch(() => null)
          return `round ${round ?? '?'}, ${evals ?? '?'} evals`
        }),
      )
      console.log(`${((Date.now() - started) / 60_000).toFixed(1)} min: ${states.join(' · ')}`)
    }
    const tabs = await Promise.all(pages.map(async (p, i) => summarise(i, await exportHistory(p))))
    await Promise.all(
      pages.map((p, i) => p.screenshot({ path: `${results}${values.name}-tab${i}.png`, fullPage: true })),
    )
    const ends = tabs.flatMap((t) => (t.passAt1.start && t.passAt1.end ? [t] : []))
    const change =
      ends.length === 0 ? NaN : mean(ends.map((t) => t.passAt1.end!.pass - t.passAt1.start!.pass))
    const run = tabs.reduce((a, t) => a + t.rounds - t.skipped, 0)
    const summary = {
      bench: 'tab-learning',
      minutes,
      tabs,
      passAt1Change: change,
      roundsWithSignal: tabs.reduce((a, t) => a + t.withSignal, 0) / Math.max(1, run),
      skipped: tabs.reduce((a, t) => a + t.skipped, 0),
    }
    await writeResults(`${results}${values.name}.json`, summary)
    const interval = (e: { pass: number; ci95?: [number, number] } | undefined) =>
      e === undefined
        ? '—'
        : `${fmt(100 * e.pass, 1)} %${e.ci95 ? ` [${fmt(100 * e.ci95[0], 1)}, ${fmt(100 * e.ci95[1], 1)}]` : ''}`
    const rows: Row[] = tabs.map((t) => ({
      metric: `tab ${t.tab}: pass@1 first → last evaluation (95 %); rounds with signal; skipped`,
      value: `${interval(t.passAt1.start)} → ${interval(t.passAt1.end)}`,
      baseline: `${t.withSignal} of ${t.rounds - t.skipped} with signal; ${t.skipped} skipped`,
      ratio: `step ${fmt(t.stepMs.median / 1000, 1)} s (p90 ${fmt(t.stepMs.p90 / 1000, 1)})`,
    }))
    printTable(
      `${tabCount} tabs learning for ${minutes} min: mean pass@1 change ${fmt(100 * change, 1)} points`,
      rows,
    )
  } finally {
    await browser.close()
    await stack.stop()
  }
}

await main()
