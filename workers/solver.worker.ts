// The solver worker: owns the model (an onnxruntime-web session) and serves the page's calls
// (src/peer/solver/solver-protocol.ts). The logic is src/peer/solver/solver-session.ts; this file wires the
// worker global, the browser's onnxruntime-web bundles, WebGPU detection and the OPFS model cache.
import { MODEL_CACHE_DIRECTORY, OpfsBlobStore } from '../src/compute/model/load/opfs-blob-store.ts'
import { sourceReader } from '../src/peer/solver/source-reader.ts'
import { hasRealGpu, type GpuProbe } from '../src/peer/solver/choose-backend.ts'
import { importOrtBundle } from '../src/peer/solver/ort-bundles.ts'
import { serveRpc, type RpcScope } from '../src/peer/rpc/worker-rpc.ts'
import { SolverSession, solverHandlers } from '../src/peer/solver/solver-session.ts'
import type { SolverMethods } from '../src/peer/solver/solver-protocol.ts'

// The project's TypeScript lib is DOM, where `self` is a Window; a dedicated worker's scope has the
// slice the RPC serves on.
const scope = self as unknown as RpcScope<SolverMethods>
const cache = OpfsBlobStore.available(MODEL_CACHE_DIRECTORY)

const session = new SolverSession({
  importOrt: importOrtBundle,
  hasRealGpu: () => hasRealGpu((navigator as { gpu?: GpuProbe }).gpu),
  readerFor: (source) => sourceReader(source, { cache }),
  now: () => performance.now(),
})
serveRpc(scope, solverHandlers(session))
