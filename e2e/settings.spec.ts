// The Settings view: what it shows about the swarm, and what pause / resume / leave / rejoin do to the
// other peers; how a tab reports a relay it cannot reach and a swarm config it cannot load.
import '../src/polyfills/promise-with-resolvers.ts'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { launchBrowser } from './browser.ts'
import { openSettings, viewLink } from './tab-actions.ts'
import { openTab, peerRows, selfId, waitForPeers, type PeerRow, waitForPeerGone } from './tabs.ts'

const PORTS = { relayPort: 19410, relayHttpPort: 19411, appPort: 19412 }
/** A second stack whose relay the unreachable test stops. */
const DEAD_RELAY_PORTS = { relayPort: 19413, relayHttpPort: 19414, appPort: 19415 }

const JOIN_MS = 30_000
const joined = (r: PeerRow) => r.connection === 'direct' && r.presence >= 1

let stack: Stack
let browser: Browser
/** the tab whose settings are used */
let actor: Page
let actorId: string
/** a tab in another context that watches what the actor's choices do */
let watcher: Page

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  stack = await startStack(PORTS)
  browser = await launchBrowser()
  ;[actor, watcher] = await Promise.all([
    browser.newContext().then((c) => openTab(c, stack.url)),
    browser.newContext().then((c) => openTab(c, stack.url)),
  ])
  actorId = await selfId(actor)
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
})

const rowOf = async (page: Page, id: string) => (await peerRows(page)).find((r) => r.id === id)

test('Settings shows the swarm id, config, relays, ICE servers and storage', async () => {
  await openSettings(actor)
  await expect(actor.getByTestId('swarm-id')).toHaveText(stack.swarmId)
  await expect(actor.getByTestId('config-name')).toHaveText(stack.config.name)
  await expect(actor.getByTestId('config-url')).toHaveText('/swarm.json')
  expect(stack.config.relays.length).toBeGreaterThan(0)
  await expect(actor.getByTestId('relay-addrs').locator('code')).toHaveText(stack.config.relays)
  await expect(actor.getByTestId('ice-servers')).toHaveText('none — loopback/LAN only')
  // The key store alone puts something in IndexedDB, so usage is a positive size of a positive quota.
  await expect(actor.getByTestId('storage-usage')).toHaveText(
    /^[1-9][\d.]* (B|KiB|MiB|GiB) of [1-9][\d.]* (KiB|MiB|GiB|TiB) \((<0\.01|[\d.]+)%\)$/,
  )
  await expect(actor.getByTestId('storage-persisted')).toHaveAttribute('data-value', /^(true|false)$/)
  await expect(actor.getByTestId('participation-state')).toHaveAttribute('data-state', 'active')
  await actor.screenshot({ path: test.info().outputPath('settings-view.png'), fullPage: true })
})

test('Pause stops this tab’s presence at the others while the link stays; Resume restarts it', async () => {
  await waitForPeers(watcher, [actorId], joined, JOIN_MS)
  await openSettings(actor)
  await actor.getByRole('button', { name: 'Pause' }).click()
  await expect(actor.getByTestId('participation-state')).toHaveAttribute('data-state', 'paused')
  await expect(actor.getByTestId('net-status')).toHaveAttribute('data-status', 'paused')

  // A beat sent just before the click may still be on its way.
  await actor.waitForTimeout(1_000)
  const paused = (await rowOf(watcher, actorId))!
  expect(paused).toBeDefined()
  // Presence beats every 3 s: 8 s without one is more than two missed beats.
  const until = Date.now() + 8_000
  while (Date.now() < until) {
    const row = await rowOf(watcher, actorId)
    expect(row?.presence).toBe(paused.presence)
    expect(row?.connection).toBe('direct')
    await watcher.waitForTimeout(500)
  }

  await actor.getByRole('button', { name: 'Resume' }).click()
  await expect(actor.getByTestId('participation-state')).toHaveAttribute('data-state', 'active')
  await expect(actor.getByTestId('net-status')).toHaveAttribute('data-status', 'online')
  await waitForPeers(
    watcher,
    [actorId],
    (r) => r.connection === 'direct' && r.presence >= paused.presence + 2,
    10_000,
  )
})

test('Leave drops this tab from the others within 3 s; Rejoin brings it back', async () => {
  await waitForPeers(watcher, [actorId], joined, JOIN_MS)
  await openSettings(actor)
  const leftAt = Date.now()
  await actor.getByRole('button', { name: 'Leave swarm' }).click()
  await waitForPeerGone(watcher, actorId, 3_000 - (Date.now() - leftAt))
  console.log(`left tab dropped after ${Date.now() - leftAt} ms`)
  await expect(actor.getByTestId('net-status')).toHaveAttribute('data-status', 'stopped')
  await expect(actor.getByTestId('participation-state')).toHaveAttribute('data-state', 'left')
  // A stopped node has no relay: the header must not keep showing the last relay state.
  await expect(actor.getByTestId('relay-state')).toHaveCount(0)
  await actor.screenshot({ path: test.info().outputPath('settings-left.png'), fullPage: true })
  // It stays gone: a stopped node neither publishes nor redials.
  await watcher.waitForTimeout(4_000)
  expect(await rowOf(watcher, actorId)).toBeUndefined()

  await actor.getByRole('button', { name: 'Rejoin' }).click()
  await expect(actor.getByTestId('participation-state')).toHaveAttribute('data-state', 'active')
  await expect(actor.getByTestId('net-status')).toHaveAttribute('data-status', 'online')
  await waitForPeers(watcher, [actorId], joined, JOIN_MS)
  await viewLink(actor, 'Swarm').click()
  await waitForPeers(actor, [await selfId(watcher)], joined, JOIN_MS)
})

test('a new tab whose relay is down says so and keeps retrying', async () => {
  const dead = await startStack(DEAD_RELAY_PORTS)
  try {
    await dead.relay.close()
    const tab = await browser.newPage()
    const crashes: string[] = []
    tab.on('pageerror', (e) => crashes.push(e.message))
    tab.on('crash', () => crashes.push('renderer crashed'))
    await tab.goto(dead.url)
    const banner = tab.getByTestId('connection-banner')
    await expect(banner).toHaveAttribute('data-state', 'unreachable', { timeout: 15_000 })
    await expect(banner).toContainText('Relay unreachable — retrying')
    await expect(tab.getByTestId('relay-state')).toHaveAttribute('data-state', 'unreachable')
    // The node itself runs: the tab has its identity and waits for a relay.
    await expect(tab.getByTestId('net-status')).toHaveAttribute('data-status', 'online')
    await selfId(tab)
    await tab.screenshot({ path: test.info().outputPath('relay-unreachable.png'), fullPage: true })
    // Retries do not turn into errors.
    await tab.waitForTimeout(3_000)
    await expect(banner).toHaveAttribute('data-state', 'unreachable')
    expect(crashes).toEqual([])
    await tab.close()
  } finally {
    await dead.stop()
  }
})

test('a swarm config that cannot be loaded is reported with its URL and the reason', async () => {
  const tab = await browser.newPage()
  await tab.goto(`${stack.url}?swarm=/nope.json`)
  const banner = tab.getByTestId('connection-banner')
  await expect(banner).toHaveAttribute('data-state', 'error')
  await expect(banner).toContainText('the swarm config at /nope.json answered HTTP 404')
  await expect(tab.getByTestId('net-status')).toHaveAttribute('data-status', 'error')
  await expect(tab.getByTestId('relay-state')).toHaveCount(0)
  await expect(tab.getByTestId('header-self-name')).toHaveText('not started')

  await openSettings(tab)
  await expect(tab.getByTestId('config-error')).toHaveText('the swarm config at /nope.json answered HTTP 404')
  await expect(tab.getByTestId('config-url')).toHaveText('/nope.json')
  await expect(tab.getByRole('alert')).toContainText('Could not use the swarm config')
  // Nothing claims a config, relays or participation that do not exist.
  await expect(tab.getByTestId('view-settings')).toContainText('No swarm config loaded')
  await expect(tab.getByTestId('relay-addrs')).toHaveCount(0)
  await expect(tab.getByTestId('ice-servers')).toHaveCount(0)
  await expect(tab.getByTestId('participation-state')).toHaveCount(0)
  await expect(tab.getByTestId('view-settings')).toContainText('Not participating: this tab could not start')
  await expect(tab.getByTestId('storage-usage')).toHaveText(/ of /)
  await tab.screenshot({ path: test.info().outputPath('config-error.png'), fullPage: true })
  await tab.close()
})
