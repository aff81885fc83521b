// The burner wallet's private key in IndexedDB: one per browser profile, so every tab of the profile
// uses the same wallet (unlike peer keys, which are one per open tab). Creating it is an `add` that
// fails when another tab got there first; the loser reads the winner's key.
//
// At rest the key is sealed with AES-GCM under a non-extractable WebCrypto key that lives in the same
// database (a CryptoKey is structured-cloneable into IndexedDB, but its bytes can never be read out), so
// the database files, or a copy of them, do not reveal the burner key. Script running in this origin can
// still ask WebCrypto to unseal it: this protects the key at rest, not from the page itself.
import { bytesToHex, hexToBytes, isHex, type Hex } from 'viem'
import { generatePrivateKey } from 'viem/accounts'

export const WALLET_DB_NAME = 'tabswarm-wallet'
const DB_VERSION = 1
const STORE = 'burner'
const KEY = 'current'
const WRAPPING_KEY = 'wrapping-key'
/** Bound into every seal as additional data: a sealed blob means nothing outside this record. */
const SEAL_CONTEXT = new TextEncoder().encode('tabswarm-burner-v1')

export interface BurnerRecord {
  id: typeof KEY
  privateKey: Hex
  /** ms since the epoch */
  createdAt: number
  /** set when the key came from a backup file */
  importedAt?: number
}

/** What is stored: the key sealed under the wrapping key. */
interface SealedRecord extends Omit<BurnerRecord, 'privateKey'> {
  iv: Uint8Array<ArrayBuffer>
  sealed: Uint8Array<ArrayBuffer>
}

/** What the app stored before keys were sealed; migrated on first open. */
type PlaintextRecord = BurnerRecord

interface WrappingKeyRecord {
  id: typeof WRAPPING_KEY
  key: CryptoKey
}

type Stored = SealedRecord | PlaintextRecord | WrappingKeyRecord

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

async function seal(record: BurnerRecord, key: CryptoKey): Promise<SealedRecord> {
  const { privateKey, ...rest } = record
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: SEAL_CONTEXT },
    key,
    hexToBytes(privateKey) as Uint8Array<ArrayBuffer>,
  )
  return { ...rest, iv, sealed: new Uint8Array(sealed) }
}

async function unseal(record: SealedRecord, key: CryptoKey): Promise<BurnerRecord> {
  const { iv, sealed, ...rest } = record
  let bytes: ArrayBuffer
  try {
    bytes = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: SEAL_CONTEXT }, key, sealed)
  } catch {
    throw new Error(
      "the burner wallet in this browser's storage cannot be unsealed (its wrapping key is gone or the record " +
        'was changed); import a backup, or clear the site data for a new burner',
    )
  }
  return { ...rest, privateKey: bytesToHex(new Uint8Array(bytes)) }
}

const isSealed = (r: Stored): r is SealedRecord => 'sealed' in r && r.sealed instanceof Uint8Array
const isPlaintext = (r: Stored): r is PlaintextRecord => 'privateKey' in r && isHex(r.privateKey)

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

  const read = <R extends Stored>(id: R['id']) =>
    new Promise<R | undefined>((resolve, reject) => {
      const tx = db.transaction(STORE, 'readonly')
      const request = tx.objectStore(STORE).get(id)
      tx.oncomplete = () => resolve(request.result as R | undefined)
      tx.onabort = () => reject(storageError('read', tx.error))
    })
  const write = (record: Stored, mode: 'add' | 'put') =>
    new Promise<void>((resolve, reject) => {
      const tx = db.transaction(STORE, 'readwrite')
      const request = tx.objectStore(STORE)[mode](record)
      request.onerror = (event) => {
        // add lost the race to another tab: fine, the caller reads that tab's record
        if (request.error?.name === 'ConstraintError') event.preventDefault()
      }
      tx.oncomplete = () => resolve()
      tx.onabort = () => reject(storageError('save', tx.error))
    })

  /** The profile's wrapping key, made on first use; `extractable: false` keeps its bytes inside WebCrypto. */
  const wrappingKey = async (): Promise<CryptoKey> => {
    const found = await read<WrappingKeyRecord>(WRAPPING_KEY)
    if (found) return found.key
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ])
    await write({ id: WRAPPING_KEY, key }, 'add')
    const made = await read<WrappingKeyRecord>(WRAPPING_KEY)
    if (!made) throw storageError('save', null)
    return made.key
  }

  return {
    async load() {
      const key = await wrappingKey()
      const found = await read<SealedRecord | PlaintextRecord>(KEY)
      if (found && isSealed(found)) return unseal(found, key)
      if (found && isPlaintext(found)) {
        // The old format: seal it in place. Two tabs migrating at once write the same key.
        const record: BurnerRecord = { ...found, id: KEY }
        await write(await seal(record, key), 'put')
        return record
      }
      const fresh: BurnerRecord = { id: KEY, privateKey: generatePrivateKey(), createdAt: Date.now() }
      await write(await seal(fresh, key), 'add')
      const made = await read<SealedRecord>(KEY)
      if (!made || !isSealed(made)) throw storageError('save', null)
      return unseal(made, key)
    },
    async replace(privateKey) {
      const record: BurnerRecord = { id: KEY, privateKey, createdAt: Date.now(), importedAt: Date.now() }
      await write(await seal(record, await wrappingKey()), 'put')
      return record
    },
    close: () => db.close(),
  }
}
