// Relay + chain + 3 tabs learning together on the micro model: every round each tab samples on its
// solver worker, shares its groups over gossipsub, hears the others', trains on its own and their groups
// on its trainer worker and swaps the new weights in. Read from the header's learning status.
import '../src/polyfills/promise-with-resolvers.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { startStack, type Stack } from '../src/cli/stack.ts'
import { DEFAULT_LEARNING, type LearningConfig } from '../src/swarm/learning-config.ts'
import { launchBrowser } from './browser.ts'
import { openTab, selfId } from './tabs.ts'

/** Rounds every tab must run fully (published, heard, trained on external groups). */
const ROUNDS = 5
// 15 s rounds: the window closes after 6 s; three tabs' GRPO steps (TS twin, 2 groups of G = 2) share
// two cores in the 9 s left.
const ROUND_MS = 15_000
const learning: LearningConfig = {
  ...DEFAULT_LEARNING,
  model: '/models/tabswarm-micro/',
  sources: [{ kind: 'reasoning', family: 'arithmetic' }],
  windowFraction: 0.4,
  evalEvery: 3,
  groupSize: 2,
  tasksPerRound: 2,
  sapo: { localGroups: 1, externalGroups: 1 },
  sampling: { ...DEFAULT_LEARNING.sampling, maxNewTokens: 12 },
  grpo: { ...DEFAULT_LEARNING.grpo, lr: 1e-2 },
}

interface Row {
  round: number
  skipped: string
  published: number
  heard: number
  local: number
  external: number
  version: number
}

let tmp: string
let stack: Stack
let browser: Browser
let tabs: Page[] = []

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tabswarm-learning-'))
  stack = await startStack({
    relayPort: 19720,
    relayHttpPort: 19721,
    appPort: 19723,
    chain: { port: 19722, stateFile: join(tmp, 'anvil-state.json') },
    config: { roundLengthMs: ROUND_MS, learning },
    // TABSWARM_DIST: a build of one's own, when others share the checkout's dist/
    dist: process.env.TABSWARM_DIST,
  })
  browser = await launchBrowser()
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

const rowsOf = (page: Page): Promise<Row[]> =>
  page
    .getByTestId('learning-rounds')
    .locator('li')
    .evaluateAll((items) =>
      items.map((li) => {
        const n = (name: string) => Number(li.getAttribute(`data-${name}`))
        return {
          round: n('round'),
          skipped: li.getAttribute('data-skipped') ?? '',
          published: n('published'),
          heard: n('heard'),
          local: n('local'),
          external: n('external'),
          version: n('version'),
        }
      }),
    )

const fullRound = (r: Row) => !r.skipped && r.published > 0 && r.heard > 0 && r.local > 0 && r.external > 0

test(`3 tabs learn together for ${ROUNDS} rounds: sharing, hearing and training on each other's rollouts`, async () => {
  test.setTimeout(200_000)
  const contexts = await Promise.all([0, 1, 2].map(() => browser.newContext()))
  tabs = await Promise.all(contexts.map((c) => openTab(c, stack.url)))
  const ids = await Promise.all(tabs.map(selfId))
  expect(new Set(ids).size).toBe(3)
  for (const tab of tabs)
    await expect(tab.getByTestId('learning-status')).toHaveAttribute('data-version', /\d/, {
      timeout: 60_000,
    })

  let all: Row[][] = []
  const together = () => {
    const sets = all.map((rows) => new Set(rows.filter(fullRound).map((r) => r.round)))
    return [...sets[0]!].filter((round) => sets.every((s) => s.has(round)))
  }
  await expect
    .poll(
      async () => {
        all = await Promise.all(tabs.map(rowsOf))
        return together().length
      },
      { timeout: (ROUNDS + 3) * ROUND_MS, intervals: [1_000] },
    )
    .toBeGreaterThanOrEqual(ROUNDS)
  for (const [i, rows] of all.entries())
    console.log(
      `tab ${i}: ${rows
        .map((r) =>
          r.skipped
            ? `${r.round}:skipped(${r.skipped})`
            : `${r.round}:p${r.published}h${r.heard}e${r.external}v${r.version}`,
        )
        .join(' ')}`,
    )
  for (const rows of all) {
    const full = rows.filter(fullRound)
    // every full round took a step: the policy version climbs by one per round
    const versions = full.map((r) => r.version)
    expect(versions).toEqual([...versions].sort((a, b) => a - b))
    expect(versions.at(-1)!).toBeGreaterThan(versions[0]!)
    // each tab heard both others' groups in most rounds (2 peers × 2 tasks)
    expect(Math.max(...full.map((r) => r.heard))).toBe(4)
  }
  // nothing went wrong on the way (a receipt that could not be signed or published would say so here)
  for (const tab of tabs) expect(await tab.getByTestId('learning-status').getAttribute('title')).toBeNull()
  // the Train view when this build has one, else the page the tab is on
  const train = tabs[0]!.getByTestId('nav-train')
  if ((await train.count()) > 0) await train.click()
  await tabs[0]!.screenshot({ path: test.info().outputPath('learning.png'), fullPage: true })
})

test('a reloaded tab shows its saved history and resumes training from its saved weights', async () => {
  test.setTimeout(90_000)
  const tab = tabs[0]!
  const before = await rowsOf(tab)
  const last = before.at(-1)!
  const lastVersion = Math.max(...before.map((r) => r.version))
  await tab.reload()
  const status = tab.getByTestId('learning-status')
  await expect(status).toHaveAttribute('data-version', /\d/, { timeout: 30_000 })
  // the trainer resumed its snapshot: not back at the shipped weights (version 0)
  expect(Number(await status.getAttribute('data-version'))).toBeGreaterThanOrEqual(lastVersion)
  // the rounds from before the reload are back
  await expect
    .poll(async () => (await rowsOf(tab)).slice(0, before.length), { timeout: 10_000 })
    .toEqual(before)
  // and it learns on: a new full round whose step continues the version count
  await expect
    .poll(async () => (await rowsOf(tab)).find((r) => r.round > last.round && fullRound(r))?.version ?? 0, {
      timeout: 4 * ROUND_MS,
      intervals: [1_000],
    })
    .toBeGreaterThan(lastVersion)
})
