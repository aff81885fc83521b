// The methods workers/sandbox.worker.ts serves the main thread (sandbox-client.ts), over the worker RPC.
import type { RpcMethod } from '../rpc/worker-rpc.ts'
import type { SandboxLimits } from './limits.ts'
import type { SandboxJob } from '../../core/tasks/sandbox-job.ts'
import type { SandboxResult } from '../../core/tasks/verdict.ts'

export interface SandboxMethods {
  /** answers once the engine is compiled (the kill timer of a job starts only then); fails if it cannot be */
  warm: RpcMethod<null, void>
  /** one job in a fresh engine; the guest's failures are its verdict, never an error */
  run: RpcMethod<{ readonly job: SandboxJob; readonly limits: SandboxLimits }, SandboxResult>
}
