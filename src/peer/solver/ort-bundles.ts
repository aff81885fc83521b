// The browser's onnxruntime-web modules, imported on demand so the wasm-only path never downloads the
// WebGPU bundle (and its 27 MB wasm): onnxruntime-web/wasm for the CPU EP, onnxruntime-web/webgpu for
// the WebGPU EP (the wasm bundle answers "backend not found" for webgpu).
import { configureWasm, type OrtModule } from './ort-runtime.ts'
import type { SolverBackend } from './solver-protocol.ts'

export async function importOrtBundle(backend: SolverBackend): Promise<OrtModule> {
  const ort: OrtModule =
    backend === 'webgpu' ? await import('onnxruntime-web/webgpu') : await import('onnxruntime-web/wasm')
  configureWasm(ort, globalThis.crossOriginIsolated === true, navigator.hardwareConcurrency || 1)
  return ort
}
