// The methods workers/trainer.worker.ts serves the page (over src/peer/rpc/worker-rpc.ts). The worker
// owns the trainer (weights, Adam state, policy version, chain position: trainer-session.ts); the page
// sends it the round's rollout groups and gets back new weights for the solver and an unsigned receipt
// to sign. It runs them one at a time in the order sent.
import type { TokenizedGroup } from '../../core/learning/tokenized-group.ts'
import type { GrpoParams } from '../../compute/proof/work-params.ts'
import type { RpcMethod } from '../rpc/worker-rpc.ts'
import type { TrainerReady, TrainerStart, TrainerStepResult } from './trainer-session.ts'

export interface TrainerMethods {
  /** the trainer saved under `key` (default: the worker's), or null when there is none (after a reload) */
  resume: RpcMethod<{ readonly key?: string }, TrainerReady | null>
  /** fresh weights, replacing any trainer saved under `key` (default: the worker's) */
  init: RpcMethod<{ readonly start: TrainerStart; readonly key?: string }, TrainerReady>
  /** one GRPO step on the groups, each with the page's own rewards; a failed step leaves the trainer as it was */
  step: RpcMethod<
    { readonly groups: readonly TokenizedGroup[]; readonly params: GrpoParams },
    TrainerStepResult
  >
}
