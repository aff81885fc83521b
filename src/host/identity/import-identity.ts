// Puts an imported key (backup or swarm.pem) into this tab's slot. The key it replaces is not
// deleted: it moves to another slot, where a later tab picks it up again (key-store.ts reuses stored
// keys before making new ones), so an import by mistake loses nothing.
import type { PrivateKey } from '@libp2p/interface'
import { privateKeyToProtobuf } from '@libp2p/crypto/keys'
import { animalName } from '../../core/identity/animal.ts'
import { parseIdentityFile } from './backup.ts'
import { browserIndexedDB, browserLocks } from './browser-io.ts'
import { openKeySlotDb, type KeySlotDb, type KeySlotRecord } from './key-slot-db.ts'
import { emptySlots } from './slot-choice.ts'
import { tryLockSlot, type SlotLockManager } from './slot-lock.ts'

export interface ImportIdentityOptions {
  /** recorded as the key's origin; the file's format when absent */
  fileName?: string
  indexedDB?: IDBFactory
  /** `null`: no Web Locks (single shared slot), so no other tab's slot needs guarding */
  locks?: SlotLockManager | null
}

export interface ImportedIdentity {
  privateKey: PrivateKey
  peerId: string
  name: string
  slot: number
  /** where the key this slot held before now lives; null when nothing moved */
  previousKeySlot: number | null
}

/**
 * Replaces the key in `slot` — the calling tab's own, claimed slot — with the key in `file`, and
 * returns the new identity. The running libp2p node keeps its old key: restart it (or reload) to
 * become the imported peer. Throws the parse errors of `parseIdentityFile`, or when the imported
 * identity is in use by another open tab.
 */
export async function importIdentity(
  slot: number,
  file: Uint8Array,
  options: ImportIdentityOptions = {},
): Promise<ImportedIdentity> {
  const { privateKey, peerId, format } = parseIdentityFile(file)
  const locks = options.locks === undefined ? browserLocks() : options.locks
  const db = await openKeySlotDb(options.indexedDB ?? browserIndexedDB())
  const imported = { privateKey, peerId, name: animalName(peerId), slot }
  try {
    const stored = await db.list()
    const current = stored.find((r) => r.slot === slot)
    if (current?.peerId === peerId) return { ...imported, previousKeySlot: null }

    // The same key stored in another slot would let two tabs run one peer id, so that slot is
    // where the current key goes: the two keys swap places (and the import keeps its createdAt).
    const duplicate = stored.find((r) => r.peerId === peerId)
    const record: KeySlotRecord = duplicate
      ? { ...duplicate, slot }
      : {
          slot,
          privateKey: privateKeyToProtobuf(privateKey),
          peerId,
          createdAt: Date.now(),
          importedFrom: options.fileName ?? format,
        }
    if (!current && !duplicate) {
      await db.update({ put: [record] })
      return { ...imported, previousKeySlot: null }
    }
    const destination = await lockDestination(db, locks, stored, duplicate)
    try {
      await db.update(
        current
          ? { put: [record, { ...current, slot: destination.slot }] }
          : { put: [record], remove: [destination.slot] },
      )
      return { ...imported, previousKeySlot: current ? destination.slot : null }
    } finally {
      // The moved key is stored; from now on it belongs to whichever tab claims that slot.
      destination.release()
    }
  } finally {
    db.close()
  }
}

/** Locks the slot the replaced key moves to: the duplicate's slot if any, else the lowest empty one. */
async function lockDestination(
  db: KeySlotDb,
  locks: SlotLockManager | null,
  stored: KeySlotRecord[],
  duplicate: KeySlotRecord | undefined,
): Promise<{ slot: number; release: () => void }> {
  if (duplicate) {
    const release = locks ? await tryLockSlot(locks, duplicate.slot) : () => {}
    if (!release) {
      throw new Error(
        `This identity (${duplicate.peerId}) is already open in another tab. Close that tab and import again.`,
      )
    }
    return { slot: duplicate.slot, release }
  }
  for (const slot of emptySlots(stored.map((r) => r.slot))) {
    if (!locks) return { slot, release: () => {} }
    const release = await tryLockSlot(locks, slot)
    if (!release) continue
    // Between listing and locking, another tab may have created this slot; never overwrite a key.
    if (!(await db.read(slot))) return { slot, release }
    release()
  }
  // emptySlots never ends and only finitely many locks can be held.
  throw new Error('unreachable: no empty key slot could be locked')
}
