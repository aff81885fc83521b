// What this browser brings to the swarm: its WebGPU adapter (if any), cores and memory. Works in a page
// or a worker; the values are reported as the browser gives them (makePresenceBody fits them to the
// presence schema).
import type { Capabilities, WebGpuInfo } from '../core/protocol/presence.ts'

// The slice of WebGPU read here. This TypeScript's lib.dom has no WebGPU types, and browsers differ:
// current Chromium has `adapter.info` and reports `isFallbackAdapter` on it; earlier versions (and the
// deprecated attribute) have it on the adapter itself.
interface GpuAdapterLike {
  info?: Partial<WebGpuInfo>
  isFallbackAdapter?: boolean
}

/** The navigator fields read; `navigator` in a page or a worker has this shape. */
export interface NavigatorLike {
  hardwareConcurrency?: number
  /** GiB, rounded; Chromium only */
  deviceMemory?: number
  gpu?: { requestAdapter(): Promise<GpuAdapterLike | null> }
}

async function detectWebGpu(gpu: NavigatorLike['gpu']): Promise<WebGpuInfo | null> {
  if (!gpu) return null
  let adapter: GpuAdapterLike | null
  try {
    adapter = await gpu.requestAdapter()
  } catch {
    // Some browsers throw instead of answering null when WebGPU is blocklisted or disabled.
    return null
  }
  if (!adapter) return null
  const info = adapter.info ?? {}
  return {
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    device: info.device ?? '',
    description: info.description ?? '',
    isFallbackAdapter: info.isFallbackAdapter ?? adapter.isFallbackAdapter ?? false,
  }
}

/** Reads the capabilities from `nav` (the global navigator by default; none in Node 20). */
export async function detectCapabilities(
  nav: NavigatorLike | undefined = typeof navigator === 'undefined' ? undefined : navigator,
): Promise<Capabilities> {
  const cores = nav?.hardwareConcurrency
  const memory = nav?.deviceMemory
  return {
    webgpu: await detectWebGpu(nav?.gpu),
    // hardwareConcurrency is missing or 0 in a few locked-down browsers; one core is the honest floor.
    cores: typeof cores === 'number' && Number.isInteger(cores) && cores >= 1 ? cores : 1,
    memoryGb: typeof memory === 'number' && memory > 0 ? memory : null,
  }
}
