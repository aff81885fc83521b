// Creating onnxruntime-web sessions for a backend. The module comes from outside (ort-bundles.ts in the
// browser, the Node build in tests) because the bundles differ: onnxruntime-web/wasm has only the CPU
// EP, onnxruntime-web/webgpu adds the WebGPU EP (research/runtime-notes.md §4).
import type { InferenceSession } from 'onnxruntime-web'
import type { OrtTensorApi } from './ort-decoder.ts'
import type { SolverBackend } from './solver-protocol.ts'

/** The part of an onnxruntime-web module the solver uses. */
export interface OrtModule extends OrtTensorApi {
  readonly InferenceSession: {
    create(model: Uint8Array, options?: InferenceSession.SessionOptions): Promise<InferenceSession>
  }
  readonly env: { readonly wasm: { numThreads?: number; proxy?: boolean } }
}

/** Most wasm threads the solver asks for; the default of onnxruntime-web, min(4, cores/2), is the same bound. */
const MAX_WASM_THREADS = 4

/**
 * Threads need SharedArrayBuffer, which only a cross-origin-isolated page has; without it
 * onnxruntime-web warns and falls back to one thread, so ask for one. The worker's proxy mode would
 * only add a second worker hop.
 */
export function configureWasm(ort: OrtModule, isolated: boolean, cores: number): void {
  ort.env.wasm.numThreads = isolated ? Math.max(1, Math.min(MAX_WASM_THREADS, Math.ceil(cores / 2))) : 1
  ort.env.wasm.proxy = false
}

export function createSession(
  ort: OrtModule,
  backend: SolverBackend,
  onnx: Uint8Array,
): Promise<InferenceSession> {
  return ort.InferenceSession.create(onnx, { executionProviders: [backend], graphOptimizationLevel: 'all' })
}
