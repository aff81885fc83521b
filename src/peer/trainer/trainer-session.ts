// The trainer worker's logic, apart from the worker global and the storage so that Node tests drive it
// directly. A session holds the weights and Adam state, the policy version and the position in the
// step-hash chain; it takes GRPO steps on the TS twin of the reproducible kernels (the WGSL kernels
// come later and must give the same bits), prepares an unsigned receipt for each (the peer key lives
// on the main thread, which signs: src/compute/proof/receipt-builders.ts `signPrepared`), and saves a
// snapshot after every step, so that a reload resumes exactly where the last saved step left off.
//
// The KL penalty's reference policy is the checkpoint the trainer was initialised from (the loaded
// model). Its hash is always in the snapshot; its bytes are stored with the snapshot only while the
// trainer takes KL steps (learning's grpo.klBeta > 0), so a swarm without the penalty saves no second
// checkpoint per step. A step without the penalty drops them (memory as on disk), after which a KL
// step refuses to run rather than take a different reference.
import { checkpointHash, readCheckpoint, writeCheckpoint } from '../../compute/model/checkpoint.ts'
import { isStorageFull } from '../../core/storage/blob-store.ts'
import { validateConfig, type ModelConfig } from '../../compute/model/config.ts'
import { tokenLogProbsOf } from '../../compute/model/grpo-step.ts'
import { initParams, type Params } from '../../compute/model/params.ts'
import { initTrainState } from '../../compute/model/train-step.ts'
import type { TokenizedGroup } from '../../core/learning/tokenized-group.ts'
import { rolloutFromGroups } from '../../compute/proof/grpo-inputs.ts'
import { genesis, type ChainPosition } from '../../core/protocol/hash-chain.ts'
import {
  prepareGrpoStepReceipt,
  type UnsignedReceipt,
  type WorkSite,
} from '../../compute/proof/receipt-builders.ts'
import type { JsonObject } from '../../core/protocol/receipt-schema.ts'
import type { TrainerUnsaved } from '../../core/learning/save-failures.ts'
import { grpoParams, type GrpoParams } from '../../compute/proof/work-params.ts'
import {
  decodeSnapshot,
  encodeSnapshot,
  type TrainerIdentity,
  type TrainerSnapshot,
} from './trainer-snapshot.ts'

/** Where the snapshot lives between page loads: OPFS in a tab, memory in Node tests. */
export interface TrainerStore {
  get(key: string): Promise<Uint8Array | undefined>
  put(key: string, bytes: Uint8Array): Promise<void>
}

/** The store key of the snapshot when the caller names none (one trainer per origin). */
export const DEFAULT_SNAPSHOT_KEY = 'tabswarm-trainer-state'

/**
 * The store key of one peer's trainer. Tabs of one browser profile share the origin's storage but each
 * claims its own identity, so keying by peer id keeps two tabs from overwriting each other's weights.
 */
export const snapshotKeyOf = (peerId: string): string => `${DEFAULT_SNAPSHOT_KEY}-${peerId}`

/** Fresh weights from a checkpoint (e.g. the solver's model) or from a seed; `chain` when they have one. */
export type TrainerStart = TrainerIdentity & { readonly chain?: ChainPosition } & (
    | { readonly checkpoint: Uint8Array }
    | { readonly config: ModelConfig; readonly seed: readonly [number, number] }
  )

export interface TrainerStatus {
  readonly modelId: string
  /** GRPO steps taken since the start */
  readonly policyVersion: number
  /** SHA-256 of the current weights' checkpoint */
  readonly weightsHash: string
  /** the step-hash chain after the last step: the tip the next receipt extends */
  readonly chain: ChainPosition
  /**
   * SHA-256 of the weights the trainer started from (policy version 0): which model it is training.
   * Absent for a trainer saved before it was recorded.
   */
  readonly startWeightsHash?: string
}

export interface TrainerReady {
  readonly status: TrainerStatus
  /** the current weights (tabswarm-q1), a copy the caller may transfer: the solver loads these */
  readonly checkpoint: Uint8Array
}

export interface TrainerStepResult extends TrainerReady {
  /** the GRPO surrogate loss before the update */
  readonly loss: number
  /** the global gradient norm before clipping, floor(norm·2^62) as a decimal string */
  readonly gradNorm: string
  /** the mean KL to the reference policy before the update; only with a KL penalty (params.klBeta) */
  readonly kl?: number
  /** the step's receipt body and side file, for the caller to sign and publish */
  readonly receipt: UnsignedReceipt
  /** wall time of the step, receipt and save included */
  readonly stepMs: number
  /**
   * Set while steps cannot be saved (a full disk, usually): the step happened and its weights are in
   * use, but a reload now resumes at `savedVersion`. Absent once a save succeeds again.
   */
  readonly unsaved?: TrainerUnsaved
}

export interface TrainerSessionOptions {
  readonly store: TrainerStore
  /** the kernels the steps run on (kernels-hash-bundled.ts in a page, kernels-hash-node.ts in Node) */
  readonly kernelsHash: string
  /** informative receipt extras (device, browser) */
  readonly info?: JsonObject
  readonly key?: string
  readonly now?: () => number
}

export interface TrainerSession {
  /**
   * The trainer saved under `key` (default: the session's), or undefined when the store holds none;
   * throws when the saved one is damaged. Later steps are saved under that key.
   */
  resume(key?: string): Promise<TrainerReady | undefined>
  /** Starts from fresh weights, replacing any trainer saved under `key` (default: the session's). */
  init(start: TrainerStart, key?: string): Promise<TrainerReady>
  /** One GRPO step on `groups` (each with the trainer's own rewards); saved before it resolves. */
  step(groups: readonly TokenizedGroup[], params: GrpoParams): Promise<TrainerStepResult>
  /** undefined until init or resume succeeds */
  readonly status: TrainerStatus | undefined
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

function statusOf(snapshot: TrainerSnapshot): TrainerStatus {
  const { modelId, policyVersion, chain, referenceHash } = snapshot
  return {
    modelId,
    policyVersion,
    weightsHash: checkpointHash(snapshot.checkpoint),
    chain,
    ...(referenceHash === undefined ? {} : { startWeightsHash: referenceHash }),
  }
}

const ready = (snapshot: TrainerSnapshot): TrainerReady => ({
  status: statusOf(snapshot),
  checkpoint: snapshot.checkpoint.slice(),
})

function startSnapshot(start: TrainerStart): TrainerSnapshot {
  const { config, params } =
    'checkpoint' in start
      ? readCheckpoint(start.checkpoint)
      : { config: validateConfig(start.config), params: initParams(start.config, start.seed) }
  if (start.modelId.length === 0) throw new RangeError('a trainer needs a modelId for its receipts')
  if (!Number.isInteger(start.padId) || start.padId < 0 || start.padId >= config.vocabSize)
    throw new RangeError(`padId ${start.padId} is not a token of this model (vocabulary ${config.vocabSize})`)
  const checkpoint = 'checkpoint' in start ? start.checkpoint.slice() : writeCheckpoint(config, params)
  const weightsHash = checkpointHash(checkpoint)
  return {
    modelId: start.modelId,
    padId: start.padId,
    policyVersion: 0,
    chain: start.chain ?? genesis(weightsHash),
    config,
    state: initTrainState(config, params),
    checkpoint,
    referenceHash: weightsHash,
    reference: checkpoint,
  }
}

/** A fixed-point value of a receipt's outputs ({exp, value}) as a number. */
const outputValue = (v: { exp: number; value: number }) => v.value * 2 ** v.exp

export function createTrainerSession(options: TrainerSessionOptions): TrainerSession {
  const { store, kernelsHash } = options
  // where the current trainer is saved: set by the last resume or init that named one
  let key = options.key ?? DEFAULT_SNAPSHOT_KEY
  const now = options.now ?? (() => performance.now())
  const site: WorkSite = { kernelsHash, ...(options.info ? { info: options.info } : {}) }
  let current: TrainerSnapshot | undefined
  // one call at a time, in arrival order: a step never sees the state of a half-done init or step
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work)
    queue = run.catch(() => undefined)
    return run
  }

  // the newest policy version in the store, while saves fail
  let savedVersion: number | undefined
  /** Saves `next` and only then makes it current: a trainer that was never saved does not start. */
  const commit = async (next: TrainerSnapshot, what: string) => {
    try {
      await store.put(key, encodeSnapshot(next))
    } catch (error) {
      throw new Error(`${what} could not be saved (${message(error)})`)
    }
    current = next
    savedVersion = next.policyVersion
  }
  /**
   * A step is kept even when it cannot be saved: a full disk must not stop learning. What a reload would
   * lose is said with every step until a save succeeds again.
   */
  const commitStep = async (next: TrainerSnapshot): Promise<TrainerUnsaved | undefined> => {
    try {
      await store.put(key, encodeSnapshot(next))
      savedVersion = next.policyVersion
      return undefined
    } catch (error) {
      return {
        savedVersion: savedVersion ?? 0,
        full: isStorageFull(error),
        why: message(error),
      }
    } finally {
      current = next
    }
  }

  // the reference weights, read once per reference
  let referenceParams: { readonly hash: string; readonly params: Params } | undefined
  const referenceOf = (from: TrainerSnapshot): Params => {
    if (!from.reference || from.referenceHash === undefined)
      throw new Error(
        'A KL penalty (grpo.klBeta > 0) needs the weights this trainer started from, and its saved state ' +
          'no longer has them (it took steps without the penalty, or was saved before it kept them): ' +
          'start the trainer again from the model to train with the penalty.',
      )
    if (referenceParams?.hash !== from.referenceHash)
      referenceParams = { hash: from.referenceHash, params: readCheckpoint(from.reference).params }
    return referenceParams.params
  }

  const step = async (groups: readonly TokenizedGroup[], params: GrpoParams): Promise<TrainerStepResult> => {
    const from = current
    if (!from) throw new Error('the trainer has no model yet: init or resume it first')
    if (groups.length === 0) throw new RangeError('a GRPO step needs at least one rollout group')
    const started = now()
    const checked = grpoParams({ ...params })
    const kl = checked.klBeta !== undefined
    const plain = rolloutFromGroups(groups, from.padId, from.config.maxSeqLen)
    // reference log-probs from the reproducible forward, like the old policy's
    const rollout = kl
      ? { ...plain, refLogProbs: tokenLogProbsOf(from.config, referenceOf(from), plain.batch) }
      : plain
    const model = { ...from, params: from.state.params }
    const prepared = await prepareGrpoStepReceipt(model, from.state.optimizer, rollout, checked, site)
    const { body } = prepared
    const unsaved = await commitStep({
      ...from,
      policyVersion: from.policyVersion + 1,
      chain: { tip: body.chainTip, length: body.chainLength },
      state: prepared.state,
      checkpoint: writeCheckpoint(from.config, prepared.state.params),
      reference: kl ? from.reference : undefined,
    })
    type Fixed = { exp: number; value: number }
    const outputs = prepared.inputs.outputs as { loss: Fixed; gradNorm: string; kl?: Fixed }
    return {
      ...ready(current!),
      loss: outputValue(outputs.loss),
      ...(outputs.kl ? { kl: outputValue(outputs.kl) } : {}),
      gradNorm: outputs.gradNorm,
      receipt: { body, inputs: prepared.inputs, info: prepared.info },
      stepMs: Math.round(now() - started),
      ...(unsaved && { unsaved }),
    }
  }

  return {
    get status() {
      return current && statusOf(current)
    },
    resume: (at) =>
      serial(async () => {
        const bytes = await store.get(at ?? key)
        if (!bytes) return undefined
        current = decodeSnapshot(bytes)
        savedVersion = current.policyVersion
        key = at ?? key
        return ready(current)
      }),
    init: (start, at) =>
      serial(async () => {
        // should the init fail, no later step may save the old key's trainer under the new key
        if (at !== undefined && at !== key) current = undefined
        key = at ?? key
        await commit(startSnapshot(start), 'the new trainer')
        return ready(current!)
      }),
    step: (groups, params) => serial(() => step(groups, params)),
  }
}
