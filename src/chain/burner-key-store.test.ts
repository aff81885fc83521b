import { IDBFactory } from 'fake-indexeddb'
import { generatePrivateKey } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { openBurnerKeyStore } from './burner-key-store.ts'

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
