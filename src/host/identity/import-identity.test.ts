import { IDBFactory } from 'fake-indexeddb'
import { generateKeyPair, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { describe, expect, it } from 'vitest'
import { exportBackup } from './backup.ts'
import { createFakeLockManager } from '../../../test-support/identity/fake-lock-manager.ts'
import { importIdentity } from './import-identity.ts'
import { openKeySlotDb } from './key-slot-db.ts'
import { claimIdentity, SESSION_SLOT_KEY } from './key-store.ts'

/** One browser profile; `tab(slot)` opens a tab that remembers `slot` (a reload of that tab). */
function browser() {
  const indexedDB = new IDBFactory()
  const locks = createFakeLockManager()
  const tab = (slot?: number) => {
    const items = new Map<string, string>(slot === undefined ? [] : [[SESSION_SLOT_KEY, String(slot)]])
    const session = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    }
    return claimIdentity({ indexedDB, locks, session, storage: null })
  }
  const slots = async () => {
    const db = await openKeySlotDb(indexedDB)
    const list = await db.list()
    db.close()
    return Object.fromEntries(list.map((r) => [r.slot, r.peerId]))
  }
  return { indexedDB, locks, tab, slots, io: { indexedDB, locks } }
}

describe('importIdentity', () => {
  it('puts a backup into the tab slot and moves the replaced key to a free slot', async () => {
    const { tab, slots, io } = browser()
    const me = await tab()
    const other = await generateKeyPair('Ed25519')
    const otherId = peerIdFromPrivateKey(other).toString()

    const result = await importIdentity(me.slot, exportBackup({ privateKey: other }), io)
    expect(result).toMatchObject({ slot: 0, peerId: otherId, previousKeySlot: 1 })
    expect(await slots()).toEqual({ 0: otherId, 1: me.peerId })

    me.release()
    const reloaded = await tab(0)
    expect(reloaded.peerId).toBe(otherId)
    expect(reloaded.importedFrom).toBe('tabswarm-backup')
    // the replaced key is still there for the next tab
    expect((await tab()).peerId).toBe(me.peerId)
  })

  it("imports RL Swarm's swarm.pem as the Qm… peer, recording the file name", async () => {
    const { tab, io } = browser()
    const me = await tab()
    const rsa = await generateKeyPair('RSA', 2048)
    const result = await importIdentity(me.slot, privateKeyToProtobuf(rsa), { ...io, fileName: 'swarm.pem' })
    expect(result.peerId).toBe(peerIdFromPrivateKey(rsa).toString())
    expect(result.peerId).toMatch(/^Qm/)

    me.release()
    const reloaded = await tab(me.slot)
    expect(reloaded.privateKey.type).toBe('RSA')
    expect(reloaded.peerId).toBe(result.peerId)
    expect(reloaded.importedFrom).toBe('swarm.pem')
  })

  it('skips slots other tabs hold when moving the replaced key', async () => {
    const { tab, slots, io } = browser()
    const me = await tab()
    const neighbour = await tab() // slot 1, key stored
    const other = await generateKeyPair('Ed25519')
    const result = await importIdentity(me.slot, exportBackup({ privateKey: other }), io)
    expect(result.previousKeySlot).toBe(2)
    expect((await slots())[1]).toBe(neighbour.peerId)
  })

  it('changes nothing when the slot already holds that identity', async () => {
    const { tab, slots, io } = browser()
    const me = await tab()
    const before = await slots()
    const result = await importIdentity(me.slot, exportBackup(me), io)
    expect(result).toMatchObject({ peerId: me.peerId, previousKeySlot: null })
    expect(await slots()).toEqual(before)
  })

  it('swaps with a free slot that already stores the imported key, so no key is stored twice', async () => {
    const { tab, slots, io } = browser()
    const me = await tab()
    const closed = await tab()
    closed.release() // its tab closed: slot 1 is free but keeps its key
    const result = await importIdentity(me.slot, exportBackup(closed), io)
    expect(result.previousKeySlot).toBe(1)
    expect(await slots()).toEqual({ 0: closed.peerId, 1: me.peerId })
  })

  it('refuses an identity that another open tab is running', async () => {
    const { tab, slots, io } = browser()
    const me = await tab()
    const open = await tab()
    const before = await slots()
    await expect(importIdentity(me.slot, exportBackup(open), io)).rejects.toThrow(
      /already open in another tab/,
    )
    expect(await slots()).toEqual(before)
  })

  it('leaves the slot untouched when the file is not an identity', async () => {
    const { tab, slots, io } = browser()
    const me = await tab()
    const before = await slots()
    await expect(importIdentity(me.slot, new Uint8Array([1, 2, 3]), io)).rejects.toThrow(/swarm\.pem/)
    expect(await slots()).toEqual(before)
  })
})
