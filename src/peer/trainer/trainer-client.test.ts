import { describe, expect, it } from 'vitest'
import { checkpointHash, writeCheckpoint } from '../../compute/model/checkpoint.ts'
import { MemoryBlobStore } from '../../core/storage/blob-store.ts'
import { initParams } from '../../compute/model/params.ts'
import { TINY_CONFIG } from '../../compute/model/test-model.ts'
import { DEMO_GROUPS, DEMO_GRPO, DEMO_PAD_ID } from '../../host/demo/demo-receipts.ts'
import { TEST_MODEL_ID } from '../../compute/proof/models.ts'
import { inProcessWorker } from '../../../test-support/rpc/in-process-worker.ts'
import { serveRpc } from '../rpc/worker-rpc.ts'
import { createTrainerClient, TrainerError } from './trainer-client.ts'
import type { TrainerMethods } from './trainer-protocol.ts'
import { trainerHandlers } from './trainer-handlers.ts'
import { createTrainerSession } from './trainer-session.ts'

/** A worker in this thread: the real methods over a session, with messages cloned as postMessage does. */
const LoopbackWorker = (store: MemoryBlobStore) =>
  inProcessWorker<TrainerMethods>((scope) =>
    serveRpc(scope, trainerHandlers(createTrainerSession({ store, kernelsHash: 'ab'.repeat(32) }))),
  )

const start = (checkpoint: Uint8Array) => ({ modelId: TEST_MODEL_ID, padId: DEMO_PAD_ID, checkpoint })

describe('the trainer client', () => {
  it('inits, steps and resumes through the worker messages, keeping the caller its bytes', async () => {
    const store = new MemoryBlobStore()
    const client = createTrainerClient(() => LoopbackWorker(store))
    const checkpoint = writeCheckpoint(TINY_CONFIG, initParams(TINY_CONFIG, [5, 0]))
    expect(await client.resume()).toBeUndefined()
    const ready = await client.init(start(checkpoint))
    expect(checkpoint.byteLength).toBeGreaterThan(0) // not detached by the transfer
    expect(ready.status.weightsHash).toBe(checkpointHash(checkpoint))
    const stepped = await client.step(DEMO_GROUPS, DEMO_GRPO)
    expect(stepped.status.policyVersion).toBe(1)
    expect(checkpointHash(stepped.checkpoint)).toBe(stepped.status.weightsHash)
    expect(stepped.receipt.body.kind).toBe('grpo-step')
    client.terminate()

    const reloaded = createTrainerClient(() => LoopbackWorker(store))
    expect((await reloaded.resume())!.status).toEqual(stepped.status)
  })

  it('rejects a refused request with the worker message and a terminated client with its kind', async () => {
    const client = createTrainerClient(() => LoopbackWorker(new MemoryBlobStore()))
    const refused = client.step(DEMO_GROUPS, DEMO_GRPO)
    await expect(refused).rejects.toThrow(
      new TrainerError('failed', 'the trainer has no model yet: init or resume it first'),
    )
    const pending = client.init(start(new Uint8Array(3)))
    client.terminate()
    await expect(pending).rejects.toMatchObject({ kind: 'terminated' })
  })
})
