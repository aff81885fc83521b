// The trainer worker: owns the weights and Adam state, takes GRPO steps with a receipt each and saves
// them so a reload resumes (src/peer/trainer/trainer-session.ts; methods: src/peer/trainer/trainer-protocol.ts).
// For now the steps run on the TS twin of the reproducible kernels on the CPU; running them as the WGSL
// kernels on WebGPU is a later task, and those must give the same bits (the same receipts).
import { TRAINER_DIRECTORY, OpfsBlobStore } from '../src/compute/model/load/opfs-blob-store.ts'
import { MemoryBlobStore } from '../src/core/storage/blob-store.ts'
import { serveRpc, type RpcScope } from '../src/peer/rpc/worker-rpc.ts'
import { trainerHandlers } from '../src/peer/trainer/trainer-handlers.ts'
import type { TrainerMethods } from '../src/peer/trainer/trainer-protocol.ts'
import { createTrainerSession } from '../src/peer/trainer/trainer-session.ts'
import { BUNDLED_KERNELS_HASH } from '../src/compute/proof/kernels-hash-bundled.ts'

// The project's TypeScript lib is DOM, where `self` is a Window; a dedicated worker's scope has the
// slice the RPC serves on.
const scope = self as unknown as RpcScope<TrainerMethods>

const session = createTrainerSession({
  // without OPFS (some private windows) the trainer works but a reload starts it over
  store: OpfsBlobStore.available(TRAINER_DIRECTORY) ?? new MemoryBlobStore(),
  kernelsHash: BUNDLED_KERNELS_HASH,
  info: { engine: 'ts-twin', userAgent: navigator.userAgent },
})
// the session runs the calls one at a time in arrival order; answers go back as each one finishes
serveRpc(scope, trainerHandlers(session))
