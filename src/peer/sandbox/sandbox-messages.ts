// Messages between the main thread (sandbox-client.ts) and the sandbox worker.
import type { SandboxLimits } from './limits.ts'
import type { SandboxJob } from '../../core/tasks/sandbox-job.ts'
import type { SandboxResult } from '../../core/tasks/verdict.ts'

export interface SandboxRequest {
  type: 'run'
  id: number
  job: SandboxJob
  limits: SandboxLimits
}

export type SandboxReply =
  /** the engine is compiled: the worker takes jobs now, and the kill timer can start with each */
  | { type: 'ready' }
  | { type: 'load-failed'; message: string }
  | { type: 'result'; id: number; result: SandboxResult }
