import { describe, expect, it } from 'vitest'
import { animalName } from './animal.ts'

// Expected names computed independently with Python's hashlib.md5 over the same word lists.
const VECTORS: [peerId: string, name: string][] = [
  // h[0] = 0xdc = 220 wraps to the first animal
  ['QmNnooDu7bfjPFoTZYxMNLWUQJyrVwtbZg5gBMjTezGAJN', 'dense slimy aardvark'],
  ['QmQCU2EcMqAqQPR2i9bChDtGNJchTbq5TbXJJ16u19uLTa', 'mammalian fishy macaw'],
  ['12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN', 'bipedal exotic chicken'],
  // h[0] = 0xff, h[1] = 0x58, h[2] = 0x8c
  ['12D3KooWLRPJAA5o6Z6RBvXqcb1LYX1sGLEvXcjGtxK5mg9FVXxe', 'quick large cockroach'],
  // multi-byte UTF-8 is hashed as UTF-8, not UTF-16
  ['héllo 🐝', 'monstrous enormous turkey'],
]

describe('animalName', () => {
  it.each(VECTORS)('%s → %s', (peerId, name) => {
    expect(animalName(peerId)).toBe(name)
  })

  it('is three lower-case words joined by single spaces', () => {
    for (const [peerId] of VECTORS) expect(animalName(peerId)).toMatch(/^[a-z]+ [a-z]+ [a-z]+$/)
  })
})
