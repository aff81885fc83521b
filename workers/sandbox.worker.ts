// The sandbox worker: compiles the QuickJS engine once, then runs each job it is sent in a fresh engine
// (src/peer/sandbox/quickjs-sandbox.ts). It has no other duties, so the main thread can kill it at any time.
import { serveRpc, type RpcScope } from '../src/peer/rpc/worker-rpc.ts'
import { compileQuickJSFromAsset } from '../src/peer/sandbox/quickjs-wasm-browser.ts'
import { QuickJSSandbox } from '../src/peer/sandbox/quickjs-sandbox.ts'
import type { SandboxMethods } from '../src/peer/sandbox/sandbox-protocol.ts'

// The project's TypeScript lib is DOM, where `self` is a Window; a dedicated worker's scope has the
// slice the RPC serves on.
const scope = self as unknown as RpcScope<SandboxMethods>

const loaded = QuickJSSandbox.load(compileQuickJSFromAsset)
// a compile failure is warm's error answer, and every job's
loaded.catch(() => {})
// Jobs arrive one at a time (the client waits for each answer), so they need no queue here.
serveRpc(scope, {
  warm: async () => {
    await loaded
  },
  run: async ({ job, limits }) => (await loaded).run(job, limits),
})
