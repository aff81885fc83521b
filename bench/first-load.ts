// First load of the app, as a visitor's browser sees it: the JavaScript fetched before the first paint
// (the entry, its preloads and any chunk the first view needs), and the first contentful paint — of two
// builds in the same run, loads alternating, so the machine's load falls on both alike.
//
//   node --import ./src/polyfills/register.js bench/first-load.ts --base /tmp/dist-before [--loads 9]
//
// The build under test is dist/ (built when stale); --base is another build to compare against (e.g.
// one of an older commit: `git worktree add /tmp/old <commit> && cd /tmp/old && npx vite build`). Each load
// is a fresh browser context (nothing cached) on #/swarm. Results: bench/results/first-load.json.
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from '@playwright/test'
import { buildWhenStale } from '../src/node/cli/app-build.ts'
import { startAppServer, type AppServer } from '../src/node/cli/app-server.ts'
import { localSwarmConfig } from '../src/node/cli/local-swarm-config.ts'
import { launchBrowser } from '../e2e/browser.ts'
import { fmt, percentile, positiveInt, printTable, writeResults } from './stats.ts'

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    loads: { type: 'string', default: '9' },
    port: { type: 'string', default: '19860' },
  },
})
if (!values.base || !existsSync(join(values.base, 'index.html')))
  throw new Error('--base names a built app folder (one with index.html) to compare against')
const loads = positiveInt(values.loads!, 'loads')
const root = fileURLToPath(new URL('../', import.meta.url))
const resultsFile = fileURLToPath(new URL('./results/first-load.json', import.meta.url))

interface Load {
  /** first contentful paint, ms after navigation start */
  fcpMs: number
  /** JavaScript bytes whose response ended before the first contentful paint */
  jsBytesBeforePaint: number
  jsFilesBeforePaint: number
  /** the Swarm view's first card on screen, ms after navigation start */
  viewMs: number
}

async function loadOnce(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${url}#/swarm`)
    await page.waitForFunction(
      () => performance.getEntriesByName('first-contentful-paint').length > 0,
      null,
      {
        timeout: 30_000,
      },
    )
    await page.locator('main .card').first().waitFor({ timeout: 30_000 })
    return await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]!.startTime
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
      const js = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
        (r) => r.name.endsWith('.js') && r.responseEnd <= fcp,
      )
      // the entry script is a resource too; the document itself is not counted
      return {
        fcpMs: fcp - nav.startTime,
        jsBytesBeforePaint: js.reduce((sum, r) => sum + r.decodedBodySize, 0),
        jsFilesBeforePaint: js.length,
        viewMs: performance.now(),
      }
    })
  } finally {
    await context.close()
  }
}

await buildWhenStale(root, 'dist')
const port = Number(values.port)
const builds = [
  { name: 'this build (dist/)', dir: join(root, 'dist') },
  { name: `base (${values.base})`, dir: values.base },
]
const servers: AppServer[] = []
for (const [i, b] of builds.entries())
  servers.push(await startAppServer({ root: b.dir, port: port + i, swarmConfig: localSwarmConfig([]) }))
const browser = await launchBrowser()
const runs: Load[][] = builds.map(() => [])
try {
  for (let n = 0; n < loads; n++)
    for (const i of n % 2 === 0 ? [0, 1] : [1, 0]) runs[i]!.push(await loadOnce(browser, servers[i]!.url))
} finally {
  await browser.close()
  await Promise.all(servers.map((s) => s.close()))
}

const spread = (v: number[]) => ({ median: percentile(v, 50), min: Math.min(...v), max: Math.max(...v) })
const summary = builds.map((b, i) => {
  const r = runs[i]!
  const fcp = r.map((x) => x.fcpMs)
  return {
    build: b.name,
    loads: r.length,
    fcpMs: spread(fcp),
    viewMs: spread(r.map((x) => x.viewMs)),
    jsBytesBeforePaint: percentile(
      r.map((x) => x.jsBytesBeforePaint),
      50,
    ),
    jsFilesBeforePaint: percentile(
      r.map((x) => x.jsFilesBeforePaint),
      50,
    ),
  }
})
const [now, base] = summary as [(typeof summary)[0], (typeof summary)[0]]
const kb = (n: number) => `${fmt(n / 1024, 0)} KiB`
const ms = (s: ReturnType<typeof spread>) => `${fmt(s.median, 0)} ms [${fmt(s.min, 0)}–${fmt(s.max, 0)}]`
printTable(`First load of #/swarm, ${loads} fresh loads per build, alternating (medians, [min–max])`, [
  {
    metric: 'JS before first paint',
    value: `${kb(now.jsBytesBeforePaint)} in ${now.jsFilesBeforePaint} files`,
    baseline: `${kb(base.jsBytesBeforePaint)} in ${base.jsFilesBeforePaint} files`,
    ratio: fmt(now.jsBytesBeforePaint / base.jsBytesBeforePaint, 2),
  },
  {
    metric: 'first contentful paint',
    value: ms(now.fcpMs),
    baseline: ms(base.fcpMs),
    ratio: fmt(now.fcpMs.median / base.fcpMs.median, 2),
  },
  {
    metric: 'Swarm view on screen',
    value: ms(now.viewMs),
    baseline: ms(base.viewMs),
    ratio: fmt(now.viewMs.median / base.viewMs.median, 2),
  },
])
await writeResults(resultsFile, { loads, builds: summary, runs })
