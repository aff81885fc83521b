// A full disk degrades learning, never stops it (issue 20 item 11): one tab learns on the micro model,
// then its origin's storage quota is cut to what it already uses (CDP Storage.overrideQuotaForOrigin),
// so every save — the round history and the trainer's state — fails with QuotaExceededError. Rounds must
// keep running and training (the policy version keeps rising), the Train view must say so in a
// sentence, and once the quota is back the tab saves again and a reload resumes from the saved state.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test, type Browser, type CDPSession, type Page } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { DEFAULT_LEARNING, type LearningConfig } from '../src/core/learning/learning-config.ts'
import { launchBrowser } from './browser.ts'
import {
  KL_EVERY_ROUND,
  playwrightTab,
  roundsOf,
  text,
  type LearningTab,
  type RoundItem,
} from './learning-tabs.ts'

const PORTS = { relayPort: 19740, relayHttpPort: 19741, appPort: 19742 }
const ROUND_MS = 8_000
const learning: LearningConfig = {
  ...DEFAULT_LEARNING,
  model: '/models/tabswarm-micro/',
  sources: [{ kind: 'reasoning', family: 'arithmetic' }],
  windowFraction: 0.3,
  evalEvery: 1_000,
  groupSize: 2,
  tasksPerRound: 2,
  sapo: { localGroups: 2, externalGroups: 0 },
  sampling: { ...DEFAULT_LEARNING.sampling, maxNewTokens: 8 },
  grpo: { ...DEFAULT_LEARNING.grpo, lr: 1e-2, klBeta: KL_EVERY_ROUND },
}

let stack: Stack
let browser: Browser

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const trained = (rows: RoundItem[]) => rows.filter((r) => !r.skipped && r.version > 0)
const lastVersion = async (tab: LearningTab) =>
  Math.max(0, ...trained(await roundsOf(tab)).map((r) => r.version))

async function usage(cdp: CDPSession, origin: string): Promise<number> {
  const { usage } = (await cdp.send('Storage.getUsageAndQuota', { origin })) as { usage: number }
  return usage
}

test('a full disk: rounds go on training, the Train view says why, and saving resumes when there is room', async () => {
  test.setTimeout(240_000)
  stack = await startStack({
    ...PORTS,
    config: { roundLengthMs: ROUND_MS, learning },
    dist: process.env.TABSWARM_DIST,
  })
  browser = await launchBrowser()
  const page: Page = await (await browser.newContext()).newPage()
  await page.goto(`${stack.url}?debug#/train`)
  const tab = playwrightTab('tab', page)
  const origin = new URL(stack.url).origin
  const cdp = await page.context().newCDPSession(page)

  // learning normally first: two rounds trained and saved
  await expect.poll(() => lastVersion(tab), { timeout: 90_000, intervals: [1_000] }).toBeGreaterThanOrEqual(2)
  // this stack runs no chain: the rounds' rewards wait, and the submissions card says why
  expect(await text(tab, 'submissions-no-chain')).toMatch(/runs no chain/)

  const used = await usage(cdp, origin)
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: used })
  const atFull = await lastVersion(tab)
  const roundAtFull = Math.max(...(await roundsOf(tab)).map((r) => r.round))

  // the sentence appears, and learning goes on: three more trained rounds while nothing can be saved
  await expect
    .poll(() => text(tab, 'train-message'), { timeout: 40_000, intervals: [1_000] })
    .toMatch(/storage is full/i)
  expect(await text(tab, 'train-banner')).toMatch(/degraded/i)
  await expect
    .poll(() => lastVersion(tab), { timeout: 60_000, intervals: [1_000] })
    .toBeGreaterThanOrEqual(atFull + 3)
  const since = (await roundsOf(tab)).filter((r) => r.round > roundAtFull)
  expect(since.filter((r) => r.skipped).map((r) => `round ${r.round}: ${r.skipped}`)).toEqual([])

  // room again: the next saves succeed, the sentence goes, and a reload resumes where it stopped
  await cdp.send('Storage.overrideQuotaForOrigin', { origin })
  await expect.poll(() => text(tab, 'train-message'), { timeout: 40_000, intervals: [1_000] }).toBeNull()
  const beforeReload = await lastVersion(tab)
  await page.reload()
  await expect
    .poll(() => lastVersion(tab), { timeout: 60_000, intervals: [1_000] })
    .toBeGreaterThan(beforeReload)
  const resumed = trained(await roundsOf(tab))
  // the history came back (rounds from before the reload are listed) and the trainer did not start over
  expect(resumed.some((r) => r.version <= atFull)).toBe(true)
  expect(Math.min(...resumed.filter((r) => r.version > beforeReload).map((r) => r.version))).toBe(
    beforeReload + 1,
  )
})
