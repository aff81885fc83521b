import { concatBytes } from '@noble/hashes/utils.js'
import { sha256 } from '@noble/hashes/sha2.js'

/**
 * Merkle root in the RFC 6962 style: leaf = SHA-256(0x00 ‖ data), node = SHA-256(0x01 ‖ left ‖ right),
 * so a leaf can never pass for a node. A level with an odd count promotes its last hash unchanged to
 * the next level (duplicating it, as Bitcoin does, would let two different lists share a root). The
 * root of no leaves is SHA-256 of nothing.
 */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha256(new Uint8Array(0))
  let level: Uint8Array[] = leaves.map((data) => sha256(concatBytes(LEAF, data)))
  while (level.length > 1) {
    const next: Uint8Array[] = []
    for (let i = 0; i + 1 < level.length; i += 2)
      next.push(sha256(concatBytes(NODE, level[i]!, level[i + 1]!)))
    if (level.length % 2 === 1) next.push(level[level.length - 1]!)
    level = next
  }
  return level[0]!
}

const LEAF = Uint8Array.of(0)
const NODE = Uint8Array.of(1)
