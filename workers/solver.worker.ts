// The solver worker: owns the model (an onnxruntime-web session) and answers the page's requests
// (src/peer/solver/solver-protocol.ts). The logic is src/peer/solver/solver-session.ts; this file wires the
// worker global, the browser's onnxruntime-web bundles, WebGPU detection and the OPFS model cache.
import { MODEL_CACHE_DIRECTORY, OpfsBlobStore } from '../src/compute/model/load/opfs-blob-store.ts'
import { sourceReader } from '../src/peer/solver/source-reader.ts'
import { hasRealGpu, type GpuProbe } from '../src/peer/solver/choose-backend.ts'
import { importOrtBundle } from '../src/peer/solver/ort-bundles.ts'
import { SolverSession } from '../src/peer/solver/solver-session.ts'
import type { SolverEvent, SolverRequest } from '../src/peer/solver/solver-protocol.ts'

// The project's TypeScript lib is DOM, where `self` is a Window; this is the slice of a dedicated
// worker's global scope the worker uses.
interface WorkerScope {
  onmessage: ((event: MessageEvent<SolverRequest>) => void) | null
  postMessage(message: SolverEvent): void
}
const scope = self as unknown as WorkerScope
const cache = OpfsBlobStore.available(MODEL_CACHE_DIRECTORY)

const session = new SolverSession({
  post: (event) => scope.postMessage(event),
  importOrt: importOrtBundle,
  hasRealGpu: () => hasRealGpu((navigator as { gpu?: GpuProbe }).gpu),
  readerFor: (source) => sourceReader(source, { cache }),
  now: () => performance.now(),
})
scope.onmessage = ({ data }) => session.handle(data)
