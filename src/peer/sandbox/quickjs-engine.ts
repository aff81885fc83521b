// A fresh QuickJS engine for every job, instantiated from one compiled WebAssembly module.
//
// Why fresh: QuickJS's own memory limit (runtime.setMemoryLimit) only refuses single allocations larger
// than the limit in this build ("malloc_usable_size unavailable", so it counts 8 bytes per allocation);
// many 8 MB arrays would grow the WebAssembly memory to its 2 GiB maximum. A memory of our own with a
// `maximum` is a hard cap the engine cannot pass, and starting every job on an empty one means the point
// where it runs out depends only on the job — the same on every peer — and nothing of one candidate is
// left for the next.
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core'

const WASM_PAGE_BYTES = 64 * 1024
/** This build's initial memory (Emscripten's INITIAL_MEMORY): stack, static data, the first of the heap. */
const ENGINE_BASE_BYTES = 16 * 1024 * 1024

/** How a platform gets the engine's compiled code: quickjs-wasm-browser.ts, quickjs-wasm-node.ts. */
export type CompileQuickJS = () => Promise<WebAssembly.Module>

/** An engine whose WebAssembly memory can hold at most `heapBytes` beyond the engine's own 16 MiB. */
export function instantiateQuickJS(
  compiled: WebAssembly.Module,
  heapBytes: number,
): Promise<QuickJSWASMModule> {
  const wasmMemory = new WebAssembly.Memory({
    initial: ENGINE_BASE_BYTES / WASM_PAGE_BYTES,
    maximum: Math.ceil((ENGINE_BASE_BYTES + heapBytes) / WASM_PAGE_BYTES),
  })
  return newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule: compiled, wasmMemory }))
}
