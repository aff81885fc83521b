import { IDBFactory } from 'fake-indexeddb'
import { bytesToHex, type Hex } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { openBurnerKeyStore, WALLET_DB_NAME } from './burner-key-store.ts'

describe('burner key store', () => {
  it('makes one key per profile and gives every tab the same one', async () => {
    const factory = new IDBFactory()
    const [a, b] = await Promise.all([openBurnerKeyStore(factory), openBurnerKeyStore(factory)])
    const [ka, kb] = await Promise.all([a.load(), b.load()])
    expect(ka.privateKey).toMatch(/^0x[0-9a-f]{64}$/)
    expect(kb.privateKey).toBe(ka.privateKey)
    a.close()
    b.close()
    const again = await openBurnerKeyStore(factory)
    expect((await again.load()).privateKey).toBe(ka.privateKey)
    again.close()
  })

  it('keeps profiles apart', async () => {
    const a = await openBurnerKeyStore(new IDBFactory())
    const b = await openBurnerKeyStore(new IDBFactory())
    expect((await a.load()).privateKey).not.toBe((await b.load()).privateKey)
  })

  it('replaces the key on import', async () => {
    const factory = new IDBFactory()
    const store = await openBurnerKeyStore(factory)
    await store.load()
    const key = generatePrivateKey()
    await store.replace(key)
    const other = await openBurnerKeyStore(factory)
    const loaded = await other.load()
    expect(loaded.privateKey).toBe(key)
    expect(loaded.importedAt).toBeTypeOf('number')
  })
})

/** Every value of every object store of the wallet database, as the files on disk would hold them. */
async function dumpDatabase(factory: IDBFactory): Promise<unknown[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = factory.open(WALLET_DB_NAME)
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error ?? new Error('open failed'))
  })
  const values: unknown[] = []
  for (const name of db.objectStoreNames) {
    values.push(
      ...(await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(name).objectStore(name).getAll()
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error ?? new Error('read failed'))
      })),
    )
  }
  db.close()
  return values
}

/** Whether the 32 key bytes appear anywhere in `value`: as hex text or as bytes of any binary field. */
function reveals(value: unknown, privateKey: Hex): boolean {
  const hex = privateKey.slice(2).toLowerCase()
  const seen = (v: unknown): boolean => {
    if (typeof v === 'string') return v.toLowerCase().includes(hex)
    if (v instanceof ArrayBuffer) return seen(new Uint8Array(v))
    if (ArrayBuffer.isView(v))
      return bytesToHex(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)).includes(hex)
    if (typeof v === 'object' && v !== null) return Object.values(v).some(seen)
    return false
  }
  return seen(value)
}

/** A version-1 database as the app wrote it before keys were wrapped: the key in plaintext hex. */
async function writePlaintextRecord(factory: IDBFactory, privateKey: Hex): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = factory.open(WALLET_DB_NAME, 1)
    open.onupgradeneeded = () => open.result.createObjectStore('burner', { keyPath: 'id' })
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error ?? new Error('open failed'))
  })
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction('burner', 'readwrite')
    tx.objectStore('burner').put({ id: 'current', privateKey, createdAt: 1_700_000_000_000 })
    tx.oncomplete = () => resolve()
    tx.onabort = () => reject(tx.error ?? new Error('write failed'))
  })
  db.close()
}

describe('burner key at rest', () => {
  it('keeps no copy of the key in the database, neither as hex nor as bytes', async () => {
    const factory = new IDBFactory()
    const store = await openBurnerKeyStore(factory)
    const made = await store.load()
    const imported = generatePrivateKey()
    store.close()
    expect(reveals(await dumpDatabase(factory), made.privateKey)).toBe(false)
    const again = await openBurnerKeyStore(factory)
    await again.replace(imported)
    again.close()
    const dump = await dumpDatabase(factory)
    expect(reveals(dump, imported)).toBe(false)
    // the wrapping key is stored as a CryptoKey that WebCrypto refuses to export
    const keys = dump.flatMap((v) => Object.values(v as object)).filter((v) => v instanceof CryptoKey)
    expect(keys).toHaveLength(1)
    await expect(crypto.subtle.exportKey('raw', keys[0] as CryptoKey)).rejects.toThrow()
    const reopened = await openBurnerKeyStore(factory)
    expect((await reopened.load()).privateKey).toBe(imported)
    reopened.close()
  })

  it('wraps a plaintext record of the old format on first open and keeps the same key', async () => {
    const factory = new IDBFactory()
    const old = generatePrivateKey()
    await writePlaintextRecord(factory, old)
    const store = await openBurnerKeyStore(factory)
    const loaded = await store.load()
    expect(loaded.privateKey).toBe(old)
    expect(loaded.createdAt).toBe(1_700_000_000_000)
    store.close()
    expect(reveals(await dumpDatabase(factory), old)).toBe(false)
    const reopened = await openBurnerKeyStore(factory)
    expect((await reopened.load()).privateKey).toBe(old)
    reopened.close()
  })

  it('gives every tab the same key when two tabs migrate at once', async () => {
    const factory = new IDBFactory()
    const old = generatePrivateKey()
    await writePlaintextRecord(factory, old)
    const [a, b] = await Promise.all([openBurnerKeyStore(factory), openBurnerKeyStore(factory)])
    const [ka, kb] = await Promise.all([a.load(), b.load()])
    expect([ka.privateKey, kb.privateKey]).toEqual([old, old])
    a.close()
    b.close()
    const reopened = await openBurnerKeyStore(factory)
    expect((await reopened.load()).privateKey).toBe(old)
    reopened.close()
  })
})
