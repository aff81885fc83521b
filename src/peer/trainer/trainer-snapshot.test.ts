import { describe, expect, it } from 'vitest'
import { checkpointHash, writeCheckpoint } from '../../compute/model/checkpoint.ts'
import { initParams } from '../../compute/model/params.ts'
import { TINY_CONFIG } from '../../compute/model/test-model.ts'
import { initTrainState } from '../../compute/model/train-step.ts'
import { genesis } from '../../core/protocol/hash-chain.ts'
import { TEST_MODEL_ID } from '../../compute/proof/models.ts'
import { decodeSnapshot, encodeSnapshot, type TrainerSnapshot } from './trainer-snapshot.ts'

const params = initParams(TINY_CONFIG, [5, 0])
const checkpoint = writeCheckpoint(TINY_CONFIG, params)
const reference = writeCheckpoint(TINY_CONFIG, initParams(TINY_CONFIG, [6, 0]))
/** A snapshot as trainers wrote them before they kept a reference. */
const older: TrainerSnapshot = {
  modelId: TEST_MODEL_ID,
  padId: 2,
  policyVersion: 3,
  chain: genesis(checkpointHash(checkpoint)),
  config: TINY_CONFIG,
  state: initTrainState(TINY_CONFIG, params),
  checkpoint,
}
const header = (bytes: Uint8Array) =>
  JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + new DataView(bytes.buffer).getUint32(0, true))))

describe('a trainer snapshot', () => {
  it('reads one without reference fields (written before them) as before', () => {
    const bytes = encodeSnapshot(older)
    expect(header(bytes)).not.toHaveProperty('referenceHash')
    const read = decodeSnapshot(bytes)
    expect(read.referenceHash).toBeUndefined()
    expect(read.reference).toBeUndefined()
    expect(read.checkpoint).toEqual(checkpoint)
  })

  it('stores the reference bytes only when they are not the checkpoint itself', () => {
    const fresh = { ...older, referenceHash: checkpointHash(checkpoint), reference: checkpoint }
    const freshBytes = encodeSnapshot(fresh)
    expect(header(freshBytes).referenceLength).toBe(0)
    expect(freshBytes.length).toBeLessThan(encodeSnapshot(older).length + 128)
    expect(decodeSnapshot(freshBytes).reference).toEqual(checkpoint)

    const moved = { ...older, referenceHash: checkpointHash(reference), reference }
    const movedBytes = encodeSnapshot(moved)
    expect(header(movedBytes).referenceLength).toBe(reference.length)
    const read = decodeSnapshot(movedBytes)
    expect(read.referenceHash).toBe(checkpointHash(reference))
    expect(read.reference).toEqual(reference)

    // the hash alone: the trainer dropped the bytes (steps without a KL penalty)
    const dropped = decodeSnapshot(encodeSnapshot({ ...older, referenceHash: checkpointHash(reference) }))
    expect(dropped.referenceHash).toBe(checkpointHash(reference))
    expect(dropped.reference).toBeUndefined()
  })

  it('refuses reference bytes that do not match their hash', () => {
    const bytes = encodeSnapshot({ ...older, referenceHash: checkpointHash(reference), reference })
    bytes[bytes.length - 1]! ^= 1
    expect(() => decodeSnapshot(bytes)).toThrow('its reference weights do not match their hash')
    expect(() =>
      encodeSnapshot({ ...older, referenceHash: checkpointHash(checkpoint).replace(/.$/, '0'), reference }),
    ).toThrow('reference weights must match their hash')
  })
})
