// The sandbox worker: compiles the QuickJS engine once, then runs each job it is sent in a fresh engine
// (src/peer/sandbox/quickjs-sandbox.ts). It has no other duties, so the main thread can kill it at any time.
import { compileQuickJSFromAsset } from '../src/peer/sandbox/quickjs-wasm-browser.ts'
import { QuickJSSandbox } from '../src/peer/sandbox/quickjs-sandbox.ts'
import type { SandboxReply, SandboxRequest } from '../src/peer/sandbox/sandbox-messages.ts'

// The project's TypeScript lib is DOM, where `self` is a Window; this is the slice of a dedicated
// worker's global scope the worker uses.
interface WorkerScope {
  onmessage: ((event: MessageEvent<SandboxRequest>) => void) | null
  postMessage(message: SandboxReply): void
}
const scope = self as unknown as WorkerScope

QuickJSSandbox.load(compileQuickJSFromAsset).then(
  (sandbox) => {
    // Jobs arrive one at a time (the client waits for each answer), so they need no queue here.
    scope.onmessage = ({ data: { id, job, limits } }) => {
      void sandbox.run(job, limits).then((result) => scope.postMessage({ type: 'result', id, result }))
    }
    scope.postMessage({ type: 'ready' })
  },
  (error: unknown) => {
    scope.postMessage({
      type: 'load-failed',
      message: error instanceof Error ? error.message : String(error),
    })
  },
)
