// The relay's private key, persisted so its peer id (and so every relay multiaddr in a swarm config)
// survives restarts. Tabs find the relay by a multiaddr ending in /p2p/<id>; a new id would strand them.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'

/** Owner read/write only: the file is the relay's identity. */
const KEY_FILE_MODE = 0o600

export class RelayKeyError extends Error {
  override name = 'RelayKeyError'
}

/**
 * Loads the protobuf-encoded private key at `keyFile`, or, when the file does not exist, generates an
 * Ed25519 key and writes it there (mode 0600, parent folders created). Without a path the key is
 * ephemeral: a new peer id on every start.
 */
export async function loadOrCreateRelayKey(keyFile?: string): Promise<PrivateKey> {
  if (keyFile === undefined) return generateKeyPair('Ed25519')
  let bytes: Uint8Array
  try {
    bytes = await readFile(keyFile)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    const key = await generateKeyPair('Ed25519')
    await mkdir(dirname(keyFile), { recursive: true })
    // 'wx' refuses to overwrite a key another process wrote in the meantime.
    await writeFile(keyFile, privateKeyToProtobuf(key), { mode: KEY_FILE_MODE, flag: 'wx' })
    // mode is masked by the umask on creation; make sure it is 0600.
    await chmod(keyFile, KEY_FILE_MODE)
    return key
  }
  try {
    return privateKeyFromProtobuf(bytes)
  } catch (err) {
    throw new RelayKeyError(
      `${keyFile} is not a libp2p private key (${(err as Error).message}); restore it from a backup, or delete it to start with a new relay peer id`,
    )
  }
}
