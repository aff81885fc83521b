// RL Swarm's human-readable peer names ("dense slimy aardvark"), reproduced byte for byte so a peer
// that imports its swarm.pem shows the same name here as on RL Swarm's dashboards.
import { md5 } from '@noble/hashes/legacy.js'
import names from './animal-names.json' with { type: 'json' }

// The lists' order is part of the algorithm: a different length or order gives different names.
const ADJECTIVES: readonly string[] = names.ADJECTIVES
const ANIMALS: readonly string[] = names.ANIMALS
if (ADJECTIVES.length !== 245 || ANIMALS.length !== 220) {
  throw new Error(`animal-names.json must hold 245 adjectives and 220 animals (RL Swarm's lists)`)
}

/** `h = md5(utf8(peerId))`; name = `ADJ[h[2] % 245] ADJ[h[1] % 245] ANIMAL[h[0] % 220]`. */
export function animalName(peerId: string): string {
  const h = md5(new TextEncoder().encode(peerId))
  // md5 always yields 16 bytes, so the first three are present.
  const [h0, h1, h2] = [h[0]!, h[1]!, h[2]!]
  return `${ADJECTIVES[h2 % 245]} ${ADJECTIVES[h1 % 245]} ${ANIMALS[h0 % 220]}`
}
