// The engine's code in the browser: Vite emits the .wasm as a hashed asset of the app's own origin; it is
// fetched and compiled once, when the sandbox worker starts, never per job.
import wasmUrl from '@jitl/quickjs-wasmfile-release-sync/wasm?url'

export async function compileQuickJSFromAsset(): Promise<WebAssembly.Module> {
  const response = await fetch(wasmUrl)
  if (!response.ok) throw new Error(`could not load the sandbox engine (${wasmUrl}: HTTP ${response.status})`)
  return WebAssembly.compile(await response.arrayBuffer())
}
