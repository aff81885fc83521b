// The engine's code in Node (unit tests, headless peers): read from the installed package.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

export async function compileQuickJSFromPackage(): Promise<WebAssembly.Module> {
  const path = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm')
  return WebAssembly.compile(await readFile(path))
}
