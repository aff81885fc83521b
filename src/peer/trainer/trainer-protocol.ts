// The messages between the page and workers/trainer.worker.ts. The worker owns the trainer (weights,
// Adam state, policy version, chain position: src/peer/trainer/trainer-session.ts); the page sends it the
// round's rollout groups and gets back new weights for the solver and an unsigned receipt to sign.
// Every request carries an id and gets exactly one answer with that id.
import type { TokenizedGroup } from '../../core/learning/tokenized-group.ts'
import type { GrpoParams } from '../../compute/proof/work-params.ts'
import type { TrainerReady, TrainerStart, TrainerStepResult } from './trainer-session.ts'

export type TrainerRequest =
  /** the trainer saved under `key` (default: the worker's), if any (after a reload) */
  | { readonly type: 'resume'; readonly requestId: number; readonly key?: string }
  /** fresh weights, replacing any trainer saved under `key` (default: the worker's) */
  | { readonly type: 'init'; readonly requestId: number; readonly start: TrainerStart; readonly key?: string }
  /** one GRPO step on the groups, each with the page's own rewards */
  | {
      readonly type: 'step'
      readonly requestId: number
      readonly groups: readonly TokenizedGroup[]
      readonly params: GrpoParams
    }

export type TrainerEvent =
  /** answers resume and init; `ready` is null when resume found nothing saved */
  | { readonly type: 'ready'; readonly requestId: number; readonly ready: TrainerReady | null }
  | { readonly type: 'stepped'; readonly requestId: number; readonly result: TrainerStepResult }
  /** the request failed; the trainer is as it was before it */
  | { readonly type: 'error'; readonly requestId: number; readonly message: string }
