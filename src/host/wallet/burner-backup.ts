// The burner wallet's key as a file a person can keep: the private key encrypted with a passphrase
// (PBKDF2-SHA256 → AES-256-GCM, WebCrypto), the address in the clear and bound to the ciphertext as
// additional data. Import checks the passphrase and that the key is the address's.
import { bytesToHex, getAddress, hexToBytes, isAddress, isHex, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

export const BURNER_BACKUP_FORMAT = 'tabswarm-burner-wallet'
/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256; about half a second in a browser. */
export const BURNER_BACKUP_ITERATIONS = 600_000
export const MIN_PASSPHRASE_LENGTH = 8

export interface BurnerBackup {
  format: typeof BURNER_BACKUP_FORMAT
  version: 1
  address: Address
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number; salt: Hex }
  cipher: { name: 'AES-GCM'; iv: Hex; ciphertext: Hex }
}

export class BurnerBackupError extends Error {
  override name = 'BurnerBackupError'
}

const utf8 = (s: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(s)
/** hex → bytes backed by a plain ArrayBuffer, as WebCrypto's types want */
const bytes = (hex: Hex): Uint8Array<ArrayBuffer> => new Uint8Array(hexToBytes(hex))

async function deriveKey(
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', utf8(passphrase.normalize('NFKC')), 'PBKDF2', false, [
    'deriveKey',
  ])
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
}

/** A sentence saying why `passphrase` is too weak, or null. */
export function passphraseProblem(passphrase: string): string | null {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH)
    return `Use a passphrase of at least ${MIN_PASSPHRASE_LENGTH} characters.`
  return null
}

export async function encryptBurnerKey(
  privateKey: Hex,
  passphrase: string,
  iterations = BURNER_BACKUP_ITERATIONS,
): Promise<BurnerBackup> {
  const problem = passphraseProblem(passphrase)
  if (problem) throw new BurnerBackupError(problem)
  const address = privateKeyToAccount(privateKey).address
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const key = await deriveKey(passphrase, salt, iterations)
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: utf8(address) },
      key,
      bytes(privateKey),
    ),
  )
  return {
    format: BURNER_BACKUP_FORMAT,
    version: 1,
    address,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt: bytesToHex(salt) },
    cipher: { name: 'AES-GCM', iv: bytesToHex(iv), ciphertext: bytesToHex(ciphertext) },
  }
}

function parseBackup(json: unknown): BurnerBackup {
  const b = json as Partial<BurnerBackup> | null
  if (typeof b !== 'object' || b === null || b.format !== BURNER_BACKUP_FORMAT)
    throw new BurnerBackupError('This is not a tabswarm burner wallet backup.')
  if (b.version !== 1)
    throw new BurnerBackupError(`This backup has version ${String(b.version)}; this app reads version 1.`)
  const { kdf, cipher } = b
  if (
    typeof b.address !== 'string' ||
    !isAddress(b.address, { strict: false }) ||
    kdf?.name !== 'PBKDF2' ||
    kdf.hash !== 'SHA-256' ||
    !Number.isSafeInteger(kdf.iterations) ||
    kdf.iterations < 1 ||
    kdf.iterations > 10_000_000 ||
    !isHex(kdf.salt) ||
    cipher?.name !== 'AES-GCM' ||
    !isHex(cipher.iv) ||
    !isHex(cipher.ciphertext)
  )
    throw new BurnerBackupError('This burner wallet backup is damaged: a field is missing or malformed.')
  return b as BurnerBackup
}

/** The private key in a backup file's text; throws a BurnerBackupError with a sentence. */
export async function decryptBurnerBackup(
  text: string,
  passphrase: string,
): Promise<{ privateKey: Hex; address: Address }> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new BurnerBackupError('This file is not JSON: pick the .json file the burner export saved.')
  }
  const backup = parseBackup(json)
  const address = getAddress(backup.address)
  const key = await deriveKey(passphrase, bytes(backup.kdf.salt), backup.kdf.iterations)
  let plain: Uint8Array
  try {
    plain = new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: bytes(backup.cipher.iv), additionalData: utf8(backup.address) },
        key,
        bytes(backup.cipher.ciphertext),
      ),
    )
  } catch {
    throw new BurnerBackupError('Wrong passphrase, or the file was changed after it was saved.')
  }
  const privateKey = bytesToHex(plain)
  if (plain.length !== 32 || privateKeyToAccount(privateKey).address !== address)
    throw new BurnerBackupError('The key in this backup does not belong to its address: the file is damaged.')
  return { privateKey, address }
}
