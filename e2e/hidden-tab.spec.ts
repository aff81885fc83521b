// A hidden tab keeps its presence beat: timers live in the peer worker, which the browser does not
// throttle like a background page's main thread.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { launchBrowser } from './browser.ts'
import { openBackgroundTab, type CdpTab } from './cdp-tab.ts'
import { openTab, peerRows, waitForPeers } from './tabs.ts'

const PORTS = { relayPort: 19500, relayHttpPort: 19501, appPort: 19502 }
const DEBUG_PORT = 19503
const WATCH_MS = 120_000

let stack: Stack
let hidden: CdpTab | undefined

test.afterAll(async () => {
  await hidden?.close()
  await stack?.stop()
})

test('a hidden tab keeps publishing presence for 2 minutes', async () => {
  test.setTimeout(WATCH_MS + 90_000)
  stack = await startStack(PORTS)
  const browser = await launchBrowser()
  const watcher = await openTab(await browser.newContext(), stack.url)

  // No background-throttling switches for the hidden tab: it gets what a real background tab gets.
  hidden = await openBackgroundTab(stack.url, DEBUG_PORT)
  const selfIdExpr = `document.querySelector('[data-testid=self-peer-id]')?.textContent ?? ''`
  await expect.poll(() => hidden!.evaluate<string>(selfIdExpr), { timeout: 20_000 }).toMatch(/^12D3KooW/)
  const hiddenId = await hidden.evaluate<string>(selfIdExpr)
  expect(await hidden.evaluate<string>('document.visibilityState')).toBe('hidden')

  await waitForPeers(watcher, [hiddenId], (r) => r.connection === 'direct' && r.presence >= 1, 30_000)
  const presenceOf = async () => (await peerRows(watcher)).find((r) => r.id === hiddenId)?.presence ?? 0
  const start = await presenceOf()
  const t0 = Date.now()
  let last = start
  // Every 20 s window must bring new presence (the beat is 3 s), for 2 minutes.
  while (Date.now() - t0 < WATCH_MS) {
    await watcher.waitForTimeout(20_000)
    const now = await presenceOf()
    expect(now, `presence from the hidden tab stalled at ${now} after ${Date.now() - t0} ms`).toBeGreaterThan(
      last,
    )
    last = now
  }
  expect(await hidden.evaluate<string>('document.visibilityState')).toBe('hidden')
  const received = last - start
  console.log(`hidden tab: ${received} presence messages in ${Math.round((Date.now() - t0) / 1000)} s`)
  // 40 beats in 120 s; allow for a late first beat and jitter, not for a stalled or halved beat.
  expect(received).toBeGreaterThanOrEqual(30)
  await browser.close()
})
