// The tab's persistent peer identity.
//
// Every open tab is its own swarm peer, so it needs its own key, and a reload must get the same key
// back. Keys live in IndexedDB in numbered *slots* (key-slot-db.ts). A tab owns a slot by holding the
// Web Lock `tabswarm-key-slot-<n>` for its whole life (slot-lock.ts); the browser releases it when the
// tab closes or crashes, so the slot's key becomes free for the next tab. Only the lock holder writes
// a slot.
//
// Choosing a slot (slot-choice.ts): the slot number is remembered in sessionStorage, which survives a
// reload and is private to the tab, so a reload tries that slot first and gets its own key. It waits
// a moment for that lock, because the page being reloaded may not have let go of it yet (lock release
// on unload is asynchronous, and some browsers have been slow or buggy here). A duplicated tab
// inherits a copy of sessionStorage but finds that slot's lock still held by the original after the
// wait, so it moves on: stored slots from the lowest (existing keys are reused before new ones are
// made), then empty slots, where a fresh Ed25519 key is generated.
//
// Without Web Locks (old browsers, insecure http origins) there is no way to tell tabs apart, so all
// tabs share slot 0 (and so one peer id); a console warning says so.
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { animalName } from '../../core/identity/animal.ts'
import { openKeySlotDb, type KeySlotDb, type KeySlotRecord } from './key-slot-db.ts'
import { slotCandidates } from './slot-choice.ts'
import { tryLockSlot, type SlotLockManager } from './slot-lock.ts'
import {
  browserIndexedDB,
  browserLocks,
  browserSessionStorage,
  browserStorage,
  type PersistentStorage,
  type SessionSlotStorage,
} from './browser-io.ts'

/** sessionStorage key holding this tab's slot number */
export const SESSION_SLOT_KEY = 'tabswarm-key-slot'

/** IO to use; each defaults to the browser's. `null` means "not available here". */
export interface ClaimIdentityOptions {
  indexedDB?: IDBFactory
  locks?: SlotLockManager | null
  session?: SessionSlotStorage | null
  storage?: PersistentStorage | null
  warn?: (message: string) => void
  /** how long to wait for the remembered slot's lock before taking another slot */
  ownSlotWaitMs?: number
}

/** Long enough for a reloaded page's lock to be dropped; what a duplicated tab waits extra. */
const OWN_SLOT_WAIT_MS = 1500

export interface TabIdentity {
  privateKey: PrivateKey
  peerId: string
  /** RL Swarm-style animal name of the peer id */
  name: string
  slot: number
  createdAt: number
  importedFrom?: string
  /** whether the browser granted persistent storage (otherwise it may evict the key under pressure) */
  persisted: boolean
  /** gives the slot back (idempotent); closing the tab does the same */
  release(): void
}

/** Claims a key slot for this tab and returns its identity, creating the key on first use. */
export async function claimIdentity(options: ClaimIdentityOptions = {}): Promise<TabIdentity> {
  const factory = options.indexedDB ?? browserIndexedDB()
  const locks = options.locks === undefined ? browserLocks() : options.locks
  const session = options.session === undefined ? browserSessionStorage() : options.session
  const storage = options.storage === undefined ? browserStorage() : options.storage
  const warn = options.warn ?? ((message: string) => console.warn(message))

  const persisted = requestPersistence(storage)
  const db = await openKeySlotDb(factory)
  let claim: SlotClaim | undefined
  try {
    const remembered = readRememberedSlot(session)
    const ownSlotWaitMs = options.ownSlotWaitMs ?? OWN_SLOT_WAIT_MS
    claim = locks ? await lockFirstFreeSlot(db, locks, remembered, ownSlotWaitMs) : sharedSlot(warn)
    const { slot } = claim
    session?.setItem(SESSION_SLOT_KEY, String(slot))
    const record = (await db.read(slot)) ?? (await createSlot(db, slot))
    const privateKey = privateKeyFromProtobuf(record.privateKey)
    const peerId = peerIdFromPrivateKey(privateKey).toString()
    return {
      privateKey,
      peerId,
      name: animalName(peerId),
      slot,
      createdAt: record.createdAt,
      ...(record.importedFrom === undefined ? {} : { importedFrom: record.importedFrom }),
      persisted: await persisted,
      release: claim.release,
    }
  } catch (e) {
    claim?.release()
    throw e
  } finally {
    db.close()
  }
}

interface SlotClaim {
  slot: number
  release: () => void
}

async function lockFirstFreeSlot(
  db: KeySlotDb,
  locks: SlotLockManager,
  remembered: number | null,
  ownSlotWaitMs: number,
): Promise<SlotClaim> {
  const stored = (await db.list()).map((r) => r.slot)
  for (const slot of slotCandidates(stored, remembered)) {
    const release = await tryLockSlot(locks, slot, slot === remembered ? ownSlotWaitMs : 0)
    if (release) return { slot, release }
  }
  // slotCandidates never ends and only finitely many locks can be held.
  throw new Error('unreachable: no key slot could be locked')
}

function sharedSlot(warn: (message: string) => void): SlotClaim {
  warn(
    'tabswarm: this browser has no Web Locks API (it needs a secure https or localhost origin), so ' +
      'every tab of this site shares one peer key. Open a single tab, or serve the app over https.',
  )
  return { slot: 0, release: () => {} }
}

async function createSlot(db: KeySlotDb, slot: number): Promise<KeySlotRecord> {
  const privateKey = await generateKeyPair('Ed25519')
  const record: KeySlotRecord = {
    slot,
    privateKey: privateKeyToProtobuf(privateKey),
    peerId: peerIdFromPrivateKey(privateKey).toString(),
    createdAt: Date.now(),
  }
  if (await db.create(record)) return record
  // Only possible without Web Locks: another tab created slot 0 meanwhile. Use its key, so that
  // the stored key and the running one never differ.
  const winner = await db.read(slot)
  if (!winner) throw new Error(`Key slot ${slot} vanished while being created; reload the page.`)
  return winner
}

function readRememberedSlot(session: SessionSlotStorage | null): number | null {
  const value = session?.getItem(SESSION_SLOT_KEY)
  if (value == null || !/^\d+$/.test(value)) return null
  return Number(value)
}

/** Asks once per origin: a grant is remembered by the browser, so a granted origin is not asked again. */
async function requestPersistence(storage: PersistentStorage | null): Promise<boolean> {
  if (!storage) return false
  try {
    return (await storage.persisted()) || (await storage.persist())
  } catch {
    // Some embedders reject instead of answering false; the key is still stored, just evictable.
    return false
  }
}
