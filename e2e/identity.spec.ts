// A tab's identity: it survives a reload, every tab of one browser gets its own key (and a closed
// tab's key goes to the next tab), an RL Swarm swarm.pem and a tabswarm backup can be imported, and a
// bad file is refused with a message that says what was expected.
import '../src/polyfills/promise-with-resolvers.ts'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateKeyPair, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { startStack, type Stack } from '../src/node/cli/stack.ts'
import { animalName } from '../src/core/identity/animal.ts'
import { launchBrowser } from './browser.ts'
import { importFile } from './tab-actions.ts'
import { openTab, peerRows, selfId, selfName, waitForPeers, type PeerRow, waitForPeerGone } from './tabs.ts'

const PORTS = { relayPort: 19400, relayHttpPort: 19401, appPort: 19402 }

/** Joining takes a WebRTC dial over the relay; a loaded 2-core machine can take a while. */
const JOIN_MS = 30_000
const joined = (r: PeerRow) => r.connection === 'direct' && r.presence >= 1

let stack: Stack
let browser: Browser
/** A tab in a context of its own that watches the others join and leave. */
let witness: Page
let witnessId: string
let tmp: string

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tabswarm-identity-'))
  stack = await startStack(PORTS)
  browser = await launchBrowser()
  witness = await openTab(await browser.newContext(), stack.url)
  witnessId = await selfId(witness)
})

test.afterAll(async () => {
  await browser?.close()
  await stack?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

test('a reloaded tab keeps its peer id and name, and the others see it come back', async () => {
  const tab = await openTab(await browser.newContext(), stack.url)
  const id = await selfId(tab)
  await expect(tab.getByTestId('self-name')).toHaveText(animalName(id))
  await waitForPeers(witness, [id], joined, JOIN_MS)

  // The old page says goodbye on pagehide, so the witness drops it before the new page rejoins.
  await Promise.all([waitForPeerGone(witness, id, 10_000), tab.reload()])
  expect(await selfId(tab)).toBe(id)
  expect(await selfName(tab)).toBe(animalName(id))
  await waitForPeers(witness, [id], joined, JOIN_MS)
  await waitForPeers(tab, [witnessId], joined, JOIN_MS)
  await tab.context().close()
})

test('two tabs of one browser are two peers; a closed tab’s key goes to the next tab', async () => {
  const context = await browser.newContext()
  const a = await openTab(context, stack.url)
  const idA = await selfId(a)
  const b = await openTab(context, stack.url)
  const idB = await selfId(b)
  expect(idB).not.toBe(idA)
  await Promise.all([waitForPeers(a, [idB], joined, JOIN_MS), waitForPeers(b, [idA], joined, JOIN_MS)])

  // Closing the tab drops its Web Lock, so its key slot is free. A new tab has no remembered slot
  // (sessionStorage is per tab) and takes the lowest stored slot it can lock: the closed tab's.
  await Promise.all([b.waitForEvent('close'), b.close({ runBeforeUnload: true })])
  await waitForPeerGone(a, idB, 10_000)
  const c = await openTab(context, stack.url)
  expect(await selfId(c)).toBe(idB)
  expect(await selfName(c)).toBe(animalName(idB))
  await waitForPeers(a, [idB], joined, JOIN_MS)
  await waitForPeers(c, [idA], joined, JOIN_MS)
  await context.close()
})

test('importing an RL Swarm swarm.pem (RSA-2048) makes the tab that peer, and it joins', async () => {
  const key = await generateKeyPair('RSA', 2048)
  const expected = peerIdFromPrivateKey(key).toString()
  expect(expected).toMatch(/^Qm\w{44}$/)
  const pem = join(tmp, 'swarm.pem')
  writeFileSync(pem, privateKeyToProtobuf(key))

  const tab = await openTab(await browser.newContext(), stack.url)
  const before = await selfId(tab)
  expect(before).not.toBe(expected)
  await importFile(tab, pem)
  await expect(tab.getByTestId('self-peer-id')).toHaveText(expected)
  await expect(tab.getByTestId('self-name')).toHaveText(animalName(expected))

  // An RSA key signs the noise handshake and every gossipsub message: the witness must see the peer
  // connected directly and accept its (signed, schema-checked) presence.
  await waitForPeers(witness, [expected], joined, JOIN_MS)
  await waitForPeers(tab, [witnessId], joined, JOIN_MS)
  const row = (await peerRows(witness)).find((r) => r.id === expected)!
  expect(row.addrs.every((a) => a.startsWith('/webrtc'))).toBe(true)
  await expect(
    witness.locator(`[data-testid="peer-row"][data-peer-id="${expected}"] [data-testid="peer-name"]`),
  ).toHaveText(animalName(expected))
  await tab.context().close()
  await waitForPeerGone(witness, expected, 10_000)
})

test('a backup restores the identity in another browser profile', async () => {
  const original = await openTab(await browser.newContext(), stack.url)
  const id = await selfId(original)
  const [download] = await Promise.all([
    original.waitForEvent('download'),
    original.getByRole('button', { name: 'Backup identity' }).click(),
  ])
  expect(download.suggestedFilename()).toBe(`tabswarm-${animalName(id).replaceAll(' ', '-')}.json`)
  const file = join(tmp, download.suggestedFilename())
  await download.saveAs(file)
  const backup = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  expect(backup).toMatchObject({
    format: 'tabswarm-identity',
    version: 1,
    peerId: id,
    name: animalName(id),
    keyType: 'Ed25519',
  })
  expect(backup.privateKey).toMatch(/^[A-Za-z0-9+/]+=*$/)

  // A separate context has its own IndexedDB and locks, so nothing there stops the import; but one
  // peer id must not run in two tabs at once, so the original goes first.
  await original.context().close()
  await waitForPeerGone(witness, id, 10_000)

  const restored = await openTab(await browser.newContext(), stack.url)
  const fresh = await selfId(restored)
  expect(fresh).not.toBe(id)
  await importFile(restored, file)
  await expect(restored.getByTestId('self-peer-id')).toHaveText(id)
  await expect(restored.getByTestId('self-name')).toHaveText(animalName(id))
  await waitForPeers(witness, [id], joined, JOIN_MS)
  await restored.context().close()
})

test('a file that is no identity is refused with what is expected, and the tab keeps its id', async () => {
  const tab = await openTab(await browser.newContext(), stack.url)
  const id = await selfId(tab)
  // A reload would clear this; the tab must stay as it is.
  await tab.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true))
  const input = tab.getByTestId('import-input')
  const error = tab.getByTestId('import-error')

  await input.setInputFiles({
    name: 'swarm.pem',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from([0xff, 0x00, 0x13, 0x37, 0xde, 0xad, 0xbe, 0xef, 0x01, 0x02]),
  })
  await expect(error).toBeVisible()
  await expect(error).toContainText('The file is not a libp2p private key')
  await expect(error).toContainText('Expected a tabswarm identity backup (.json) or an RL Swarm swarm.pem')

  await input.setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"hello": "world"}'),
  })
  await expect(error).toContainText('This JSON file is not a tabswarm identity backup')
  await expect(error).toContainText('Expected a tabswarm identity backup (.json)')

  await expect(tab.getByTestId('import-done')).toHaveCount(0)
  expect(await tab.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
  expect(await selfId(tab)).toBe(id)
  await tab.reload()
  expect(await selfId(tab)).toBe(id)
  await tab.context().close()
})
