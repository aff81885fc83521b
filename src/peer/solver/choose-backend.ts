// Which onnxruntime-web execution provider runs the model. WebGPU only on a real GPU: a fallback adapter
// or SwiftShader (Chromium's CPU WebGPU) runs shaders on the CPU, far slower than the wasm EP. And only
// for large models: on a tiny model the wasm EP measured ~50× faster than WebGPU, whose per-run dispatch
// and first-run shader compile dominate (research/runtime-notes.md §4).
import type { SolverBackend } from './solver-protocol.ts'

/** Below this many bytes of ONNX the wasm EP wins even with a GPU; Qwen2.5-0.5B-class exports are far above it. */
export const WEBGPU_MIN_MODEL_BYTES = 64 * 1024 * 1024

/** The slice of navigator.gpu the check reads (adapter.info since Chrome 127; isFallbackAdapter on the adapter before). */
export interface GpuProbe {
  requestAdapter(): Promise<{
    readonly isFallbackAdapter?: boolean
    readonly info?: {
      readonly vendor?: string
      readonly architecture?: string
      readonly device?: string
      readonly description?: string
      readonly isFallbackAdapter?: boolean
    }
  } | null>
}

export async function hasRealGpu(gpu: GpuProbe | undefined): Promise<boolean> {
  if (!gpu) return false
  const adapter = await gpu.requestAdapter().catch(() => null)
  if (!adapter) return false
  const info = adapter.info ?? {}
  if (adapter.isFallbackAdapter || info.isFallbackAdapter) return false
  const identity = [info.vendor, info.architecture, info.device, info.description].join(' ').toLowerCase()
  return !identity.includes('swiftshader')
}

export function chooseBackend(modelBytes: number, realGpu: boolean): SolverBackend {
  return realGpu && modelBytes >= WEBGPU_MIN_MODEL_BYTES ? 'webgpu' : 'wasm'
}
