// The sandbox as the page uses it: a SandboxClient whose workers run workers/sandbox.worker.ts.
import type { SandboxLimits } from './limits.ts'
import { SandboxClient, type SandboxWorker } from './sandbox-client.ts'

declare global {
  /** With `?debug` in the URL: starts a sandbox in the page, for devtools and e2e/sandbox.spec.ts. */
  var tabswarmSandbox: ((limits?: SandboxLimits) => SandboxClient) | undefined
}

export function createBrowserSandbox(limits?: SandboxLimits): SandboxClient {
  const spawn = () =>
    new Worker(new URL('../../../workers/sandbox.worker.ts', import.meta.url), {
      type: 'module',
      name: 'sandbox',
    }) as unknown as SandboxWorker
  return new SandboxClient(spawn, limits)
}
