// IndexedDB storage of key slots: one record per slot index, written only by the tab that holds
// the slot's lock (see key-store.ts). A thin promise layer over IDB requests, nothing more.

export const IDENTITY_DB_NAME = 'tabswarm-identity'
const DB_VERSION = 1
const STORE = 'key-slots'

export interface KeySlotRecord {
  slot: number
  /** libp2p protobuf `PrivateKey` bytes (`privateKeyToProtobuf`) */
  privateKey: Uint8Array
  peerId: string
  /** ms since the epoch */
  createdAt: number
  /** where an imported key came from (a file name or format); absent for keys made here */
  importedFrom?: string
}

export interface KeySlotDb {
  /** every stored slot, lowest index first */
  list(): Promise<KeySlotRecord[]>
  read(slot: number): Promise<KeySlotRecord | undefined>
  /** stores a new slot; false (and nothing written) when the slot already has a record */
  create(record: KeySlotRecord): Promise<boolean>
  /** writes and deletes slots in one transaction, so a key is never lost half-way through a move */
  update(changes: { put?: KeySlotRecord[]; remove?: number[] }): Promise<void>
  close(): void
}

export async function openKeySlotDb(factory: IDBFactory): Promise<KeySlotDb> {
  const open = factory.open(IDENTITY_DB_NAME, DB_VERSION)
  open.onupgradeneeded = () => {
    if (!open.result.objectStoreNames.contains(STORE))
      open.result.createObjectStore(STORE, { keyPath: 'slot' })
  }
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(storageError('open', open.error))
    // Another tab holds an older version open; it closes on versionchange (below), so this only
    // stalls if that tab is frozen. Say so rather than hang silently.
    open.onblocked = () =>
      console.warn('tabswarm: identity database upgrade waits for another tab to close it')
  })
  // Let a newer version of the app upgrade the schema instead of being blocked by this tab.
  db.onversionchange = () => db.close()

  const run = <T>(mode: IDBTransactionMode, body: (store: IDBObjectStore) => IDBRequest<T> | void) =>
    new Promise<T | undefined>((resolve, reject) => {
      const tx = db.transaction(STORE, mode)
      const request = body(tx.objectStore(STORE))
      // Resolve on commit, not on the request, so a write is durable when the promise settles.
      tx.oncomplete = () => resolve(request ? request.result : undefined)
      const verb = mode === 'readonly' ? 'read' : 'write'
      tx.onabort = () => reject(storageError(verb, tx.error))
    })

  return {
    async list() {
      const records = ((await run('readonly', (s) => s.getAll())) ?? []) as KeySlotRecord[]
      return records.sort((a, b) => a.slot - b.slot)
    },
    async read(slot) {
      return (await run('readonly', (s) => s.get(slot))) as KeySlotRecord | undefined
    },
    create(record) {
      return new Promise<boolean>((resolve, reject) => {
        const tx = db.transaction(STORE, 'readwrite')
        const request = tx.objectStore(STORE).add(record)
        let created = true
        request.onerror = (event) => {
          if (request.error?.name !== 'ConstraintError') return
          // Another writer got there first: not a failure, the caller reads the winner's key.
          event.preventDefault()
          created = false
        }
        tx.oncomplete = () => resolve(created)
        tx.onabort = () => reject(storageError('write', tx.error))
      })
    },
    async update({ put = [], remove = [] }) {
      await run('readwrite', (s) => {
        for (const slot of remove) s.delete(slot)
        for (const record of put) s.put(record)
      })
    },
    close: () => db.close(),
  }
}

function storageError(verb: 'open' | 'read' | 'write', cause: DOMException | null): Error {
  return new Error(
    `Could not ${verb} the identity ` +
      `database (${cause?.name ?? 'unknown error'}: ${cause?.message ?? ''}). The browser may block ` +
      `storage for this site (private window, blocked cookies/site data); allow site data and reload.`,
    { cause },
  )
}
