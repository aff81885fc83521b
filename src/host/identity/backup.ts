// Identity files: the tabswarm JSON backup this app writes, and RL Swarm's swarm.pem, which despite
// its name is not PEM text but the raw libp2p protobuf PrivateKey (RSA-2048, PKCS#1 DER). Pure:
// bytes in, key out; storing an imported key is import-identity.ts's job.
import { privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import type { KeyType, PrivateKey } from '@libp2p/interface'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { fromString, toString } from 'uint8arrays'
import { animalName } from '../../core/identity/animal.ts'

export const BACKUP_FORMAT = 'tabswarm-identity'
export const BACKUP_VERSION = 1

export interface IdentityBackup {
  format: typeof BACKUP_FORMAT
  version: typeof BACKUP_VERSION
  peerId: string
  /** informational; recomputed from the peer id on import */
  name: string
  keyType: KeyType
  /** base64 (padded) of the libp2p protobuf PrivateKey */
  privateKey: string
}

export interface ParsedIdentityFile {
  privateKey: PrivateKey
  peerId: string
  /** `tabswarm-backup`: the JSON above; `libp2p-key`: protobuf key bytes such as RL Swarm's swarm.pem */
  format: 'tabswarm-backup' | 'libp2p-key'
}

const EXPECTED =
  'Expected a tabswarm identity backup (.json) or an RL Swarm swarm.pem (the binary libp2p key file ' +
  'RL Swarm writes next to its config).'

/** The backup file's bytes (UTF-8 JSON); wrap in a Blob to offer it as a download. */
export function exportBackup(identity: { privateKey: PrivateKey }): Uint8Array {
  const { privateKey } = identity
  const peerId = peerIdFromPrivateKey(privateKey).toString()
  const backup: IdentityBackup = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    peerId,
    name: animalName(peerId),
    keyType: privateKey.type,
    privateKey: toString(privateKeyToProtobuf(privateKey), 'base64pad'),
  }
  return new TextEncoder().encode(`${JSON.stringify(backup, null, 2)}\n`)
}

/** Reads a backup or a swarm.pem; throws an Error saying what is wrong and what was expected. */
export function parseIdentityFile(bytes: Uint8Array): ParsedIdentityFile {
  if (bytes.length === 0) throw new Error(`The file is empty. ${EXPECTED}`)
  const text = asText(bytes)
  if (text?.startsWith('{')) return parseBackup(text)
  if (text?.startsWith('-----BEGIN')) {
    throw new Error(
      `This is PEM text, which tabswarm does not read. ${EXPECTED} RL Swarm's swarm.pem is binary even ` +
        'though its name says PEM.',
    )
  }
  const privateKey = keyFromProtobuf(bytes, 'The file is not a libp2p private key')
  return { privateKey, peerId: peerIdFromPrivateKey(privateKey).toString(), format: 'libp2p-key' }
}

function parseBackup(text: string): ParsedIdentityFile {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new Error(`The file looks like JSON but does not parse (${(e as Error).message}). ${EXPECTED}`)
  }
  const backup = json as Partial<Record<keyof IdentityBackup, unknown>>
  if (backup.format !== BACKUP_FORMAT) {
    throw new Error(
      `This JSON file is not a tabswarm identity backup (format is not "${BACKUP_FORMAT}"). ${EXPECTED}`,
    )
  }
  if (backup.version !== BACKUP_VERSION) {
    throw new Error(
      `This identity backup has version ${String(backup.version)}; this app reads version ${BACKUP_VERSION}. ` +
        'Open it with the app version that wrote it, or update this one.',
    )
  }
  if (typeof backup.privateKey !== 'string' || typeof backup.peerId !== 'string') {
    throw new Error('This identity backup is incomplete: it needs "peerId" and "privateKey" strings.')
  }
  let keyBytes: Uint8Array
  try {
    // Accept unpadded base64 too: other tools write either.
    keyBytes = fromString(backup.privateKey.replace(/=+$/, ''), 'base64')
  } catch {
    throw new Error('This identity backup is damaged: "privateKey" is not base64. Use another copy of it.')
  }
  const privateKey = keyFromProtobuf(
    keyBytes,
    'This identity backup is damaged: "privateKey" is not a libp2p key',
  )
  const peerId = peerIdFromPrivateKey(privateKey).toString()
  if (peerId !== backup.peerId) {
    throw new Error(
      `This identity backup is inconsistent: its key belongs to peer ${peerId}, not to the stated ` +
        `${backup.peerId}. The file was edited or mixed up; use an unmodified backup.`,
    )
  }
  if (backup.keyType !== undefined && backup.keyType !== privateKey.type) {
    throw new Error(
      `This identity backup is inconsistent: it says "${String(backup.keyType)}" but holds a ${privateKey.type} key.`,
    )
  }
  return { privateKey, peerId, format: 'tabswarm-backup' }
}

function keyFromProtobuf(bytes: Uint8Array, what: string): PrivateKey {
  try {
    return privateKeyFromProtobuf(bytes)
  } catch (e) {
    // The decoder's own messages ("index out of range: 5 + 1192 > 600") mean nothing to a user;
    // keep them as the cause for debugging.
    throw new Error(`${what} (it is truncated, damaged or another kind of file). ${EXPECTED}`, { cause: e })
  }
}

/** The file as text if it is valid UTF-8 (after leading whitespace), else null: binary keys rarely are. */
function asText(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).trimStart()
  } catch {
    return null
  }
}
