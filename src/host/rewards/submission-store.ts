// The reward queue in IndexedDB, so rounds queued while the chain was down survive a reload. One record
// per (scope, round); a scope is one peer on one coordinator (each tab has its own peer, so tabs never
// write the same records). A thin promise layer over IDB requests, like the identity and burner stores.
import type { Address } from 'viem'
import type { QueueEntry } from './submission-queue.ts'

export const SUBMISSIONS_DB_NAME = 'tabswarm-submissions'
const DB_VERSION = 1
const STORE = 'rounds'
const SCOPE_INDEX = 'scope'

interface StoredEntry extends QueueEntry {
  scope: string
}

export interface SubmissionStore {
  /** the scope's rounds, ascending */
  load(): Promise<QueueEntry[]>
  /** writes `put` and deletes the rounds in `remove`, in one transaction */
  save(put: readonly QueueEntry[], remove: readonly number[]): Promise<void>
  close(): void
}

/** The queue of `peerId` on the coordinator at `coordinator` of chain `chainId`. */
export const submissionScope = (chainId: number, coordinator: Address, peerId: string): string =>
  `${chainId}/${coordinator.toLowerCase()}/${peerId}`

function storageError(verb: 'open' | 'read' | 'write', cause: DOMException | null): Error {
  return new Error(
    `Could not ${verb} the queued rewards in this browser's storage (${cause?.message ?? 'unknown error'}); ` +
      'they are kept in this page only until it closes. Allow site data for this page to keep them.',
    { cause },
  )
}

export async function openSubmissionStore(factory: IDBFactory, scope: string): Promise<SubmissionStore> {
  const open = factory.open(SUBMISSIONS_DB_NAME, DB_VERSION)
  open.onupgradeneeded = () => {
    if (!open.result.objectStoreNames.contains(STORE))
      open.result.createObjectStore(STORE, { keyPath: ['scope', 'round'] }).createIndex(SCOPE_INDEX, 'scope')
  }
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(storageError('open', open.error))
  })
  // Let a newer version of the app upgrade the schema instead of being blocked by this tab.
  db.onversionchange = () => db.close()

  return {
    load: () =>
      new Promise<QueueEntry[]>((resolve, reject) => {
        const tx = db.transaction(STORE, 'readonly')
        const request = tx.objectStore(STORE).index(SCOPE_INDEX).getAll(scope)
        tx.oncomplete = () =>
          resolve((request.result as StoredEntry[]).map(({ scope: _scope, ...entry }) => entry))
        tx.onabort = () => reject(storageError('read', tx.error))
      }),
    save: (put, remove) =>
      new Promise<void>((resolve, reject) => {
        const tx = db.transaction(STORE, 'readwrite')
        const store = tx.objectStore(STORE)
        for (const round of remove) store.delete([scope, round])
        for (const entry of put)
          store.put({ ...entry, winners: [...entry.winners], scope } satisfies StoredEntry)
        // Resolve on commit, not on the requests, so a write is durable when the promise settles.
        tx.oncomplete = () => resolve()
        tx.onabort = () => reject(storageError('write', tx.error))
      }),
    close: () => db.close(),
  }
}
