// With `?debug` in the URL the running network is reachable from devtools (and from the benchmarks) as
// `window.tabswarm`. Nothing reads it otherwise; the UI goes through the stores.
import type { Network } from './net/start-network.ts'

export interface DebugHandle {
  network: Network
}

declare global {
  var tabswarm: DebugHandle | undefined
}

export function exposeDebugHandle(search: string, handle: DebugHandle | undefined): void {
  if (new URLSearchParams(search).has('debug')) globalThis.tabswarm = handle
  if (new URLSearchParams(search).has('debug'))
    void import('../peer/sandbox/browser-sandbox.ts').then(
      (m) => (globalThis.tabswarmSandbox = m.createBrowserSandbox),
    )
}
