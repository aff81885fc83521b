import { IDBFactory } from 'fake-indexeddb'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { describe, expect, it, vi } from 'vitest'
import { createFakeLockManager } from '../../../test-support/identity/fake-lock-manager.ts'
import { openKeySlotDb } from './key-slot-db.ts'
import { claimIdentity, SESSION_SLOT_KEY, type ClaimIdentityOptions } from './key-store.ts'
import { animalName } from '../../core/identity/animal.ts'
import { slotLockName } from './slot-lock.ts'

class MemorySession {
  readonly items = new Map<string, string>()
  getItem(key: string): string | null {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value)
  }
  /** what "Duplicate tab" does: the new tab starts with a copy */
  copy(): MemorySession {
    const c = new MemorySession()
    for (const [k, v] of this.items) c.items.set(k, v)
    return c
  }
}

/** One browser profile: tabs share its IndexedDB and locks; each tab has its own sessionStorage. */
function browser() {
  const indexedDB = new IDBFactory()
  const locks = createFakeLockManager()
  const tab = (session = new MemorySession(), extra: ClaimIdentityOptions = {}) =>
    claimIdentity({ indexedDB, locks, session, storage: null, ownSlotWaitMs: 50, ...extra })
  return { indexedDB, locks, tab }
}

describe('claimIdentity', () => {
  it('creates an Ed25519 key on first visit, stores it in slot 0 and holds the lock', async () => {
    const { indexedDB, locks, tab } = browser()
    const session = new MemorySession()
    const id = await tab(session)
    expect(id.slot).toBe(0)
    expect(id.privateKey.type).toBe('Ed25519')
    expect(id.peerId).toMatch(/^12D3KooW/)
    expect(id.peerId).toBe(peerIdFromPrivateKey(id.privateKey).toString())
    expect(id.name).toBe(animalName(id.peerId))
    expect(session.getItem(SESSION_SLOT_KEY)).toBe('0')
    expect(locks.held()).toEqual([slotLockName(0)])
    const db = await openKeySlotDb(indexedDB)
    const stored = await db.list()
    db.close()
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ slot: 0, peerId: id.peerId, createdAt: id.createdAt })
    id.release()
    // Web Locks release asynchronously, once the holding promise settles.
    await vi.waitFor(() => expect(locks.held()).toEqual([]))
  })

  it('gives two open tabs two different peer ids', async () => {
    const { tab } = browser()
    const a = await tab()
    const b = await tab()
    expect([a.slot, b.slot]).toEqual([0, 1])
    expect(a.peerId).not.toBe(b.peerId)
  })

  it('gives two tabs claiming at the same moment different slots', async () => {
    const { tab } = browser()
    const [a, b] = await Promise.all([tab(), tab()])
    expect(a.slot).not.toBe(b.slot)
    expect(a.peerId).not.toBe(b.peerId)
  })

  it('gives a reloaded tab its own key back, even when a lower slot is free', async () => {
    const { tab } = browser()
    const a = await tab()
    const bSession = new MemorySession()
    const b = await tab(bSession)
    a.release() // tab A closes: slot 0 is free
    b.release() // tab B unloads for the reload…
    const reloaded = await tab(bSession) // …and comes back with the same sessionStorage
    expect(reloaded.slot).toBe(1)
    expect(reloaded.peerId).toBe(b.peerId)
  })

  it('waits for a reloaded page to let go of its slot rather than take another', async () => {
    const { tab } = browser()
    const session = new MemorySession()
    const before = await tab(session)
    const reloading = tab(session, { ownSlotWaitMs: 5_000 })
    setTimeout(() => before.release(), 200) // the old page's lock goes away late
    const after = await reloading
    expect(after.slot).toBe(before.slot)
    expect(after.peerId).toBe(before.peerId)
  })

  it('gives a duplicated tab another slot, since the original still holds the remembered one', async () => {
    const { tab } = browser()
    const session = new MemorySession()
    const original = await tab(session)
    const duplicate = await tab(session.copy())
    expect(duplicate.slot).not.toBe(original.slot)
    expect(duplicate.peerId).not.toBe(original.peerId)
  })

  it('reuses a freed slot key before creating a new one', async () => {
    const { tab } = browser()
    const a = await tab()
    const b = await tab()
    const c = await tab()
    b.release()
    const next = await tab()
    expect(next.slot).toBe(1)
    expect(next.peerId).toBe(b.peerId)
    expect(new Set([a.peerId, c.peerId, next.peerId]).size).toBe(3)
  })

  it('keeps the key for the next visit', async () => {
    const { tab } = browser()
    const first = await tab()
    first.release()
    const again = await tab()
    expect(again.peerId).toBe(first.peerId)
    expect(again.createdAt).toBe(first.createdAt)
  })

  it('falls back to one shared slot with a warning where Web Locks are missing', async () => {
    const { tab } = browser()
    const warn = vi.fn()
    const a = await tab(new MemorySession(), { locks: null, warn })
    const b = await tab(new MemorySession(), { locks: null, warn })
    expect([a.slot, b.slot]).toEqual([0, 0])
    expect(b.peerId).toBe(a.peerId)
    expect(warn).toHaveBeenCalledTimes(2)
    expect(warn.mock.calls[0]?.[0]).toMatch(/Web Locks/)
  })

  it('stores one key when lock-less tabs create slot 0 at the same moment', async () => {
    const { tab } = browser()
    const warn = (): void => {}
    const [a, b] = await Promise.all([
      tab(new MemorySession(), { locks: null, warn }),
      tab(new MemorySession(), { locks: null, warn }),
    ])
    expect(b.peerId).toBe(a.peerId)
  })

  it('asks for persistent storage only when not yet granted, and reports the answer', async () => {
    const { tab } = browser()
    const granted = { persisted: vi.fn(async () => false), persist: vi.fn(async () => true) }
    expect((await tab(new MemorySession(), { storage: granted })).persisted).toBe(true)
    expect(granted.persist).toHaveBeenCalledTimes(1)

    const already = { persisted: vi.fn(async () => true), persist: vi.fn(async () => true) }
    expect((await tab(new MemorySession(), { storage: already })).persisted).toBe(true)
    expect(already.persist).not.toHaveBeenCalled()

    const refused = { persisted: async () => false, persist: async () => Promise.reject(new Error('no')) }
    expect((await tab(new MemorySession(), { storage: refused })).persisted).toBe(false)
    expect((await tab(new MemorySession(), { storage: null })).persisted).toBe(false)
  })

  it('ignores a remembered slot that is not a slot number', async () => {
    const { tab } = browser()
    const session = new MemorySession()
    session.setItem(SESSION_SLOT_KEY, 'x')
    expect((await tab(session)).slot).toBe(0)
    expect(session.getItem(SESSION_SLOT_KEY)).toBe('0')
  })
})
