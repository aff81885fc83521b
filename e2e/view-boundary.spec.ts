// A view that breaks stays in its box: when the Markets view cannot load its code (a flaky network, a
// deploy that replaced the chunk), that view says so, and the header, the other views and the swarm peer
// go on — the other tab still sees this one, and this one still lists it.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { launchBrowser } from './browser.ts'
import { openTab, selfId, waitForPeers, type PeerRow } from './tabs.ts'

const PORTS = { relayPort: 19840, relayHttpPort: 19841, appPort: 19842 }
const joined = (r: PeerRow) => r.connection === 'direct' && r.presence >= 1

let stack: Stack
let browser: Browser
let broken: Page
let other: Page

test.beforeAll(async () => {
  stack = await startStack(PORTS)
  browser = await launchBrowser()
  ;[broken, other] = await Promise.all([
    browser.newContext().then((c) => openTab(c, stack.url)),
    browser.newContext().then((c) => openTab(c, stack.url)),
  ])
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

test('a view that cannot load says so, and the rest of the tab and the swarm go on', async () => {
  const [brokenId, otherId] = await Promise.all([selfId(broken), selfId(other)])
  await waitForPeers(broken, [otherId], joined, 30_000)

  // the Markets view's code fails to arrive
  await broken.route(/\/assets\/MarketsView-[\w-]+\.js$/, (route) => route.abort('connectionreset'))
  await broken.getByRole('link', { name: 'Markets', exact: true }).click()
  const alert = broken.getByRole('alert')
  await expect(alert).toContainText('The Markets view stopped')
  await expect(alert).toContainText('The swarm, your identity and the other views keep running')
  await broken.screenshot({ path: test.info().outputPath('markets-view-stopped.png'), fullPage: true })

  // the header still navigates, the other views render, and the peer is still in the swarm both ways
  await broken.getByRole('link', { name: 'Swarm', exact: true }).click()
  await expect(broken.getByRole('alert')).toHaveCount(0)
  await waitForPeers(broken, [otherId], joined)
  await waitForPeers(other, [brokenId], joined)
  await broken.getByRole('link', { name: 'Settings', exact: true }).click()
  await expect(broken.getByTestId('swarm-id')).toHaveText(stack.swarmId)
})
