// The burner wallet's private key in IndexedDB: one per browser profile, so every tab of the profile
// uses the same wallet (unlike peer keys, which are one per open tab). Creating it is an `add` that
// fails when another tab got there first; the loser reads the winner's key.
import { isHex, type Hex } from 'viem'
import { generatePrivateKey } from 'viem/accounts'

export const WALLET_DB_NAME = 'tabswarm-wallet'
const DB_VERSION = 1
const STORE = 'burner'
const KEY = 'current'

export interface BurnerRecord {
  id: typeof KEY
  privateKey: Hex
  /** ms since the epoch */
  createdAt: number
  /** set when the key came from a backup file */
  importedAt?: number
}

export interface BurnerKeyStore {
  /** the profile's burner key, made on first use */
  load(): Promise<BurnerRecord>
  /** replaces the burner key (import of a backup) */
  replace(privateKey: Hex): Promise<BurnerRecord>
  close(): void
}

function storageError(what: string, cause: DOMException | null): Error {
  return new Error(
    `could not ${what} the burner wallet in this browser's storage (${cause?.message ?? 'unknown error'}); ` +
      'private windows and full disks refuse it — use an injected wallet instead',
  )
}

export async function openBurnerKeyStore(factory: IDBFactory = indexedDB): Promise<BurnerKeyStore> {
  const open = factory.open(WALLET_DB_NAME, DB_VERSION)
  open.onupgradeneeded = () => {
    if (!open.result.objectStoreNames.contains(STORE)) open.result.createObjectStore(STORE, { keyPath: 'id' })
  }
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(storageError('open', open.error))
  })
  db.onversionchange = () => db.close()

  const read = () =>
    new Promise<BurnerRecord | undefined>((resolve, reject) => {
      const tx = db.transaction(STORE, 'readonly')
      const request = tx.objectStore(STORE).get(KEY)
      tx.oncomplete = () => resolve(request.result as BurnerRecord | undefined)
      tx.onabort = () => reject(storageError('read', tx.error))
    })
  const write = (record: BurnerRecord, mode: 'add' | 'put') =>
    new Promise<void>((resolve, reject) => {
      const tx = db.transaction(STORE, 'readwrite')
      const request = tx.objectStore(STORE)[mode](record)
      request.onerror = (event) => {
        // add lost the race to another tab: fine, the caller reads that tab's key
        if (request.error?.name === 'ConstraintError') event.preventDefault()
      }
      tx.oncomplete = () => resolve()
      tx.onabort = () => reject(storageError('save', tx.error))
    })

  return {
    async load() {
      const found = await read()
      if (found && isHex(found.privateKey)) return found
      await write({ id: KEY, privateKey: generatePrivateKey(), createdAt: Date.now() }, 'add')
      const made = await read()
      if (!made) throw storageError('save', null)
      return made
    },
    async replace(privateKey) {
      const record: BurnerRecord = { id: KEY, privateKey, createdAt: Date.now(), importedAt: Date.now() }
      await write(record, 'put')
      return record
    },
    close: () => db.close(),
  }
}
