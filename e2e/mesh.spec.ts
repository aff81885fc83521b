// Relay + 4 tabs: a direct WebRTC mesh forms, gossip reaches everyone, survives the relay, and peers
// that leave (normally or by crashing) are dropped.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test, type Browser, type BrowserServer, type Page } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { launchBrowser, launchKillableBrowser } from './browser.ts'
import { openTab, peerRows, selfId, waitForPeerGone, waitForPeers } from './tabs.ts'

const PORTS = { relayPort: 19110, relayHttpPort: 19111, appPort: 19112 }

let stack: Stack
let browser: Browser
// The last tab runs in a browser process of its own, so the crash test can SIGKILL it: no pagehide,
// no goodbye, like a tab whose renderer or machine died.
let doomed: { browser: Browser; server: BrowserServer }
let tabs: Page[] = []
let ids: string[] = []

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  stack = await startStack(PORTS)
  browser = await launchBrowser()
  doomed = await launchKillableBrowser()
})

test.afterAll(async () => {
  await browser?.close()
  await doomed?.server.kill()
  await stack?.stop()
})

const othersOf = (i: number) => ids.filter((_, j) => j !== i)
const presenceFrom = async (page: Page) =>
  Object.fromEntries((await peerRows(page)).map((r) => [r.id, r.presence]))

test('4 tabs form a direct WebRTC mesh within 10 s and hear each other', async () => {
  const contexts = await Promise.all([browser, browser, browser, doomed.browser].map((b) => b.newContext()))
  tabs = await Promise.all(contexts.map((c) => openTab(c, stack.url)))
  // The clock starts when the pages have loaded: how long 4 Chromium pages take to load on a loaded
  // 2-core machine is not what this measures.
  const started = Date.now()
  ids = await Promise.all(tabs.map(selfId))
  expect(new Set(ids).size).toBe(4)

  await Promise.all(
    tabs.map((tab, i) =>
      waitForPeers(
        tab,
        othersOf(i),
        (r) =>
          r.connection === 'direct' &&
          r.addrs.length > 0 &&
          r.addrs.every((a) => a.startsWith('/webrtc') && !a.includes('/p2p-circuit')),
        10_000 - (Date.now() - started),
      ),
    ),
  )
  const meshMs = Date.now() - started
  console.log(`direct mesh of 4 tabs after ${meshMs} ms`)
  expect(meshMs).toBeLessThan(10_000)

  // Every tab's presence messages reach every other tab.
  await Promise.all(tabs.map((tab, i) => waitForPeers(tab, othersOf(i), (r) => r.presence >= 1)))
})

test('gossip keeps flowing when the relay stops', async () => {
  await stack.relay.close()
  await Promise.all(
    tabs.map((tab) => expect(tab.getByTestId('relay-state')).not.toHaveAttribute('data-state', 'reserved')),
  )
  const before = await Promise.all(tabs.map(presenceFrom))
  // Presence beats every 3 s: two more from each peer prove the mesh carries gossip without the relay.
  await Promise.all(
    tabs.map((tab, i) =>
      waitForPeers(
        tab,
        othersOf(i),
        (r) => r.connection === 'direct' && r.presence >= before[i]![r.id]! + 2,
        20_000,
      ),
    ),
  )
})

test('a tab that closes normally is dropped by the others within 3 s', async () => {
  const [leaving] = tabs.splice(2, 1) as [Page]
  const [leavingId] = ids.splice(2, 1) as [string]
  const closedAt = Date.now()
  await leaving.close({ runBeforeUnload: true })
  await Promise.all(tabs.map((tab) => waitForPeerGone(tab, leavingId, 3_000)))
  console.log(`closed tab dropped after ${Date.now() - closedAt} ms`)
})

test('a tab that crashes is dropped by the others within 30 s', async () => {
  tabs.pop()
  const crashedId = ids.pop()!
  const crashedAt = Date.now()
  await doomed.server.kill()
  await Promise.all(tabs.map((tab) => waitForPeerGone(tab, crashedId, 30_000)))
  console.log(`crashed tab dropped after ${Date.now() - crashedAt} ms`)
  // The survivors still hear each other.
  await waitForPeers(tabs[0]!, [ids[1]!], (r) => r.connection === 'direct')
  await waitForPeers(tabs[1]!, [ids[0]!], (r) => r.connection === 'direct')
})
