import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { BURNER_BACKUP_FORMAT, decryptBurnerBackup, encryptBurnerKey } from './burner-backup.ts'

const FAST = 1_000 // iterations: the real count is slow on purpose

describe('burner backup', () => {
  it('round-trips the key with the right passphrase', async () => {
    const key = generatePrivateKey()
    const backup = await encryptBurnerKey(key, 'correct horse', FAST)
    expect(backup.format).toBe(BURNER_BACKUP_FORMAT)
    expect(backup.address).toBe(privateKeyToAccount(key).address)
    expect(JSON.stringify(backup)).not.toContain(key.slice(2))
    const back = await decryptBurnerBackup(JSON.stringify(backup), 'correct horse')
    expect(back).toEqual({ privateKey: key, address: backup.address })
  })

  it('refuses a wrong passphrase', async () => {
    const backup = await encryptBurnerKey(generatePrivateKey(), 'correct horse', FAST)
    await expect(decryptBurnerBackup(JSON.stringify(backup), 'wrong horse')).rejects.toThrow(
      /^Wrong passphrase/,
    )
  })

  it('refuses a backup whose address was swapped', async () => {
    const backup = await encryptBurnerKey(generatePrivateKey(), 'correct horse', FAST)
    const other = privateKeyToAccount(generatePrivateKey()).address
    await expect(
      decryptBurnerBackup(JSON.stringify({ ...backup, address: other }), 'correct horse'),
    ).rejects.toThrow(/^Wrong passphrase, or the file was changed/)
  })

  it('refuses a short passphrase on export', async () => {
    await expect(encryptBurnerKey(generatePrivateKey(), 'short', FAST)).rejects.toThrow(
      /at least 8 characters/,
    )
  })

  it('says what is wrong with other files', async () => {
    await expect(decryptBurnerBackup('not json', 'x')).rejects.toThrow(/not JSON/)
    await expect(decryptBurnerBackup('{"format":"other"}', 'x')).rejects.toThrow(
      /not a tabswarm burner wallet backup/,
    )
    await expect(
      decryptBurnerBackup(`{"format":"${BURNER_BACKUP_FORMAT}","version":1}`, 'x'),
    ).rejects.toThrow(/damaged/)
  })
})
