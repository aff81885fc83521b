import { describe, expect, it } from 'vitest'
import { checkpointHash, readCheckpoint, weightsHash, writeCheckpoint } from './checkpoint.ts'
import { initParams } from './params.ts'
import { TINY_CONFIG } from './test-model.ts'

const params = initParams(TINY_CONFIG, [5, 0])

describe('checkpoint format', () => {
  it('round-trips exactly and hashes the bytes', () => {
    const bytes = writeCheckpoint(TINY_CONFIG, params)
    const { config, params: back } = readCheckpoint(bytes)
    expect(config).toEqual(TINY_CONFIG)
    for (const [name, t] of params) {
      expect(back.get(name)!.exp).toBe(t.exp)
      expect(back.get(name)!.data).toEqual(t.data)
    }
    expect(writeCheckpoint(config, back)).toEqual(bytes)
    expect(weightsHash(TINY_CONFIG, params)).toMatch(/^[0-9a-f]{64}$/)
  })

  it('is a safetensors file: u64 header length, JSON header with I32 tensors, 8-byte aligned data', () => {
    const bytes = writeCheckpoint(TINY_CONFIG, params)
    const n = Number(new DataView(bytes.buffer).getBigUint64(0, true))
    expect(n % 8).toBe(0)
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)))
    expect(header['model.embed_tokens.weight']).toEqual({
      dtype: 'I32',
      shape: [24, 32],
      data_offsets: [0, 24 * 32 * 4],
    })
    expect(header.__metadata__.format).toBe('tabswarm-q1')
  })

  it('changes its hash when one bit of one weight flips, and rejects damaged files', () => {
    const bytes = writeCheckpoint(TINY_CONFIG, params)
    const flipped = Uint8Array.from(bytes)
    flipped[bytes.length - 1]! ^= 1
    expect(checkpointHash(flipped)).not.toBe(checkpointHash(bytes))
    expect(() => readCheckpoint(bytes.subarray(0, bytes.length - 4))).toThrow(/length/)
    expect(() => readCheckpoint(Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0, 0))).toThrow(/JSON/)
  })
})
