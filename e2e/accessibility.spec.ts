// Every view, populated — three peers learning, a market this tab traded, a receipt it received — passes
// axe's WCAG 2 A/AA rules (none disabled) with no serious or critical violation, in the dark and the
// light theme, on a desktop window and on a 375 px phone, where no page is wider than the screen.
// Screenshots of each view in the light theme on a phone are kept for a person to look at.
import '../src/polyfills/promise-with-resolvers.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { marketHref } from '../src/host/markets/market-route.ts'
import { launchBrowser } from './browser.ts'
import { MICRO_LEARNING } from './learning-tabs.ts'
import { buy, fundedBurner, marketsFromNode } from './market-actions.ts'
import { chainFromNode } from './wallet-actions.ts'

// three tabs learning on the micro model (15 s rounds: three tabs' steps share two cores)
const ROUND_MS = 15_000
const VIEWS = ['swarm', 'train', 'solve', 'markets', 'wallet', 'verify', 'settings']

let tmp: string
let stack: Stack
let browser: Browser
let tab: Page

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tabswarm-a11y-'))
  stack = await startStack({
    relayPort: 19850,
    relayHttpPort: 19851,
    appPort: 19853,
    chain: { port: 19852, stateFile: join(tmp, 'anvil-state.json') },
    config: { roundLengthMs: ROUND_MS, learning: MICRO_LEARNING },
  })
  browser = await launchBrowser()
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

/** axe's serious and critical WCAG 2 A/AA violations on the page as it is, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

test('every view, populated, has no serious accessibility violation in both themes and at 375 px', async () => {
  test.setTimeout(300_000)
  tab = await (await browser.newContext()).newPage()
  await fundedBurner(tab, stack.url)
  // two more peers learn beside this one, so its views have peers, rounds, gossip and receipts to show
  await Promise.all(
    [0, 1].map(async () => (await browser.newContext()).newPage().then((p) => p.goto(stack.url))),
  )
  const [market] = await marketsFromNode(await chainFromNode(stack), stack.deployment!)
  await tab.goto(`${stack.url}${marketHref(market!.address)}`)
  await buy(tab, 0, '1')
  await tab.goto(`${stack.url}#/verify`)
  await expect(tab.locator('[data-testid=received-row][data-ours=false]').first()).toBeVisible({
    timeout: 6 * ROUND_MS,
  })

  const found: string[] = []
  for (const colorScheme of ['dark', 'light'] as const)
    for (const width of [1280, 375]) {
      await tab.emulateMedia({ colorScheme })
      await tab.setViewportSize({ width, height: 800 })
      for (const route of [...VIEWS, marketHref(market!.address).slice(2)]) {
        await tab.goto(`${stack.url}#/${route}`)
        await tab.locator('main .card').first().waitFor()
        for (const v of await seriousViolations(tab)) found.push(`${colorScheme} ${width}px #/${route}: ${v}`)
        // nothing wider than the screen: a phone scrolls the page down, never sideways
        const pageWidth = await tab.evaluate(() => document.documentElement.scrollWidth)
        if (pageWidth > width)
          found.push(`${colorScheme} ${width}px #/${route}: the page is ${pageWidth} px wide`)
        if (colorScheme === 'light' && width === 375 && VIEWS.includes(route))
          await tab.screenshot({ path: test.info().outputPath(`light-375-${route}.png`), fullPage: true })
      }
    }
  expect(found).toEqual([])
})
