import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js'
import { canonicalJson } from './canonical-json.ts'

/** Every hash in a receipt is SHA-256 as 64 lowercase hex digits. */
export const HASH_HEX = /^[0-9a-f]{64}$/

export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes))
}

/** SHA-256 of the RFC 8785 canonical JSON of a value: how structured data becomes a hash. */
export function jsonHash(value: unknown): string {
  return sha256Hex(new TextEncoder().encode(canonicalJson(value)))
}

/** SHA-256 over a domain tag followed by raw parts; the tag keeps hashes of different roles apart. */
export function taggedHash(tag: string, ...parts: Uint8Array[]): Uint8Array {
  return sha256(concatBytes(new TextEncoder().encode(tag), ...parts))
}

export { bytesToHex, hexToBytes }
