import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { float64Hash, genesisHash, stepHash } from './training-chain.ts'

describe('training chain hashes', () => {
  it('commit to the canonical JSON of the genesis, whatever the key order', () => {
    expect(genesisHash({ b: 1, a: [2] })).toBe(genesisHash({ a: [2], b: 1 }))
    expect(genesisHash({ a: 1 })).toBe(bytesToHex(sha256(new TextEncoder().encode('{"a":1}'))))
  })

  it('hash float64 weights as little-endian bytes', () => {
    const bytes = new Uint8Array(8)
    new DataView(bytes.buffer).setFloat64(0, 1.5, true)
    expect(float64Hash(Float64Array.of(1.5))).toBe(bytesToHex(sha256(bytes)))
    expect(float64Hash(Float64Array.of(0))).not.toBe(float64Hash(Float64Array.of(-0)))
  })

  it('chain previous hash, step, exact loss bits and weights hash', () => {
    const previous = 'ab'.repeat(32)
    const weights = 'cd'.repeat(32)
    const fields = new Uint8Array(12)
    new DataView(fields.buffer).setUint32(0, 3, true)
    new DataView(fields.buffer).setFloat64(4, 0.25, true)
    const expected = bytesToHex(
      sha256(new Uint8Array([...hexToBytes(previous), ...fields, ...hexToBytes(weights)])),
    )
    expect(stepHash(previous, 3, 0.25, weights)).toBe(expected)
    expect(stepHash(previous, 3, 0.25 + 2 ** -54, weights)).not.toBe(expected)
    expect(stepHash(previous, 4, 0.25, weights)).not.toBe(expected)
  })
})
