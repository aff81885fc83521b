// The browser objects the identity modules use by default, typed as narrowly as they are used so
// Node tests can pass fakes. The optional ones answer null where the browser (or Node) lacks them.
import type { SlotLockManager } from './slot-lock.ts'

/** The part of `Storage` used to remember the slot; `sessionStorage` satisfies it. */
export interface SessionSlotStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

/** The part of `StorageManager` used to ask for persistent storage; `navigator.storage` satisfies it. */
export interface PersistentStorage {
  persisted(): Promise<boolean>
  persist(): Promise<boolean>
}

/** IndexedDB is not optional: without it the key would change on every visit. */
export function browserIndexedDB(): IDBFactory {
  const factory = globalThis.indexedDB
  if (!factory) {
    throw new Error(
      'This browser offers no IndexedDB here, so the peer key cannot be kept. Leave private browsing ' +
        'or allow site data for this page, then reload.',
    )
  }
  return factory
}

/** Web Locks exist only in secure contexts (https, localhost). */
export function browserLocks(): SlotLockManager | null {
  return globalThis.navigator?.locks ?? null
}

export function browserStorage(): PersistentStorage | null {
  return globalThis.navigator?.storage ?? null
}

export function browserSessionStorage(): SessionSlotStorage | null {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    // Reading sessionStorage throws when the user blocks site data; the tab then forgets its slot.
    return null
  }
}
