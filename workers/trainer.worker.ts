// The trainer worker: owns the weights and Adam state, takes GRPO steps with a receipt each and saves
// them so a reload resumes (src/peer/trainer/trainer-session.ts; messages: src/peer/trainer/trainer-protocol.ts).
// For now the steps run on the TS twin of the reproducible kernels on the CPU; running them as the WGSL
// kernels on WebGPU is a later task, and those must give the same bits (the same receipts).
import { TRAINER_DIRECTORY, OpfsBlobStore } from '../src/compute/model/load/opfs-blob-store.ts'
import { MemoryBlobStore } from '../src/core/storage/blob-store.ts'
import { answerTrainerRequest } from '../src/peer/trainer/trainer-requests.ts'
import type { TrainerEvent, TrainerRequest } from '../src/peer/trainer/trainer-protocol.ts'
import { createTrainerSession } from '../src/peer/trainer/trainer-session.ts'
import { BUNDLED_KERNELS_HASH } from '../src/compute/proof/kernels-hash-bundled.ts'

// The project's TypeScript lib is DOM, where `self` is a Window; this is the slice of a dedicated
// worker's global scope the worker uses.
interface WorkerScope {
  onmessage: ((event: MessageEvent<TrainerRequest>) => void) | null
  postMessage(message: TrainerEvent, transfer: Transferable[]): void
}
const scope = self as unknown as WorkerScope

const session = createTrainerSession({
  // without OPFS (some private windows) the trainer works but a reload starts it over
  store: OpfsBlobStore.available(TRAINER_DIRECTORY) ?? new MemoryBlobStore(),
  kernelsHash: BUNDLED_KERNELS_HASH,
  info: { engine: 'ts-twin', userAgent: navigator.userAgent },
})
// the session runs requests one at a time in arrival order; answers go back as each one finishes
scope.onmessage = ({ data }) => {
  void answerTrainerRequest(session, data).then(({ event, transfer }) => scope.postMessage(event, transfer))
}
