// The Verify view lists the training receipts other peers publish: two tabs learn on the micro model
// (relay, no chain); tab A's Verify view lists tab B's receipt under B's name, checked valid from the
// receipt alone, and its own marked "ours"; B's step shows the weights it wrote once B's next step is
// listed; a click opens B's receipt in the Verify panel, which downloads it as the JSON B published.
import '../src/polyfills/promise-with-resolvers.ts'
import { readFileSync } from 'node:fs'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { DEFAULT_LEARNING, type LearningConfig } from '../src/core/learning/learning-config.ts'
import { launchBrowser } from './browser.ts'
import { KL_EVERY_ROUND } from './learning-tabs.ts'
import { openTab } from './tabs.ts'

const PORTS = { relayPort: 19780, relayHttpPort: 19781, appPort: 19782 }
// 12 s rounds: the window closes after ~5 s; two tabs' GRPO steps (TS twin, G = 2) fit the rest.
const ROUND_MS = 12_000
const learning: LearningConfig = {
  ...DEFAULT_LEARNING,
  model: '/models/tabswarm-micro/',
  sources: [{ kind: 'reasoning', family: 'arithmetic' }],
  windowFraction: 0.4,
  groupSize: 2,
  tasksPerRound: 2,
  sapo: { localGroups: 1, externalGroups: 1 },
  sampling: { ...DEFAULT_LEARNING.sampling, maxNewTokens: 12 },
  grpo: { ...DEFAULT_LEARNING.grpo, klBeta: KL_EVERY_ROUND },
}

let stack: Stack
let browser: Browser

test.beforeAll(async () => {
  stack = await startStack({
    ...PORTS,
    config: { roundLengthMs: ROUND_MS, learning },
    // TABSWARM_DIST: a build of one's own, when others share the checkout's dist/
    dist: process.env.TABSWARM_DIST,
  })
  browser = await launchBrowser()
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

async function self(page: Page): Promise<{ id: string; name: string }> {
  const id = page.getByTestId('header-self-id')
  await expect(id).toHaveAttribute('title', /^12D3KooW/)
  return {
    id: (await id.getAttribute('title'))!,
    name: (await page.getByTestId('header-self-name').textContent())!.trim(),
  }
}

test("tab A's Verify view lists tab B's training receipt as valid, under B's name, and opens it", async () => {
  test.setTimeout(90_000)
  const [a, b] = await Promise.all(
    [0, 1].map(async () => openTab(await browser.newContext(), `${stack.url}#/verify`)),
  )
  const [selfA, selfB] = [await self(a!), await self(b!)]

  const row = (peer: string) => a!.locator(`[data-testid=received-row][data-peer="${peer}"]`).first()
  // B's first step, once its loop joined a round from its start and trained on it
  await expect(row(selfB.id)).toBeVisible({ timeout: 5 * ROUND_MS })
  await expect(row(selfB.id)).toHaveAttribute('data-ours', 'false')
  await expect(row(selfB.id).getByTestId('received-peer-name')).toHaveText(selfB.name)
  await expect(row(selfB.id).getByTestId('received-verdict')).toHaveAttribute('data-ok', 'true')
  await expect(row(selfB.id).getByTestId('received-verdict')).toHaveText('✓ valid')
  // A's own steps are listed too, marked as ours
  await expect(row(selfA.id)).toHaveAttribute('data-ours', 'true', { timeout: 2 * ROUND_MS })
  await expect(row(selfA.id)).toContainText('ours')
  // once B's next step is listed, B's previous step shows the weights it wrote: those the next one read
  const rowsB = a!.locator(`[data-testid=received-row][data-peer="${selfB.id}"]`)
  await expect.poll(() => rowsB.count(), { timeout: 3 * ROUND_MS }).toBeGreaterThanOrEqual(2)
  const [newer, older] = [rowsB.nth(0), rowsB.nth(1)]
  const nextIn = (await newer.getByTestId('received-weights-in').getAttribute('title'))!
  await expect(older.getByTestId('received-weights-out')).toHaveAttribute('title', nextIn)
  await a!.screenshot({ path: test.info().outputPath('received-receipts.png'), fullPage: true })

  const receiptHash = (await row(selfB.id).getAttribute('data-receipt'))!
  await row(selfB.id).click()
  await expect(a!.getByTestId('verify-peer-name')).toHaveText(selfB.name)
  await expect(a!.getByTestId('verify-peer-id')).toHaveAttribute('title', selfB.id)
  await expect(a!.getByTestId('verify-kind')).toHaveText('grpo-step')
  await expect(a!.getByTestId('verify-validity')).toHaveAttribute('data-ok', 'true')
  await expect(a!.getByTestId('verify-receipt-file-name')).toHaveText(/\.receipt\.json$/)
  await a!.screenshot({ path: test.info().outputPath('received-opened.png'), fullPage: true })

  const [download] = await Promise.all([
    a!.waitForEvent('download'),
    a!.getByTestId('verify-download').click(),
  ])
  expect(download.suggestedFilename()).toMatch(/\.receipt\.json$/)
  const saved = JSON.parse(readFileSync((await download.path())!, 'utf8')) as Record<string, unknown>
  expect(saved).toMatchObject({ peerId: selfB.id, receiptHash, kind: 'grpo-step' })
})
