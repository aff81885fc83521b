import type { PrivateKey } from '@libp2p/interface'
import { checkpointHash, writeCheckpoint } from '../model/checkpoint.ts'
import type { ModelConfig } from '../model/config.ts'
import type { Batch } from '../model/forward.ts'
import type { Params } from '../model/params.ts'
import type { Program, ProgramRunner } from '../model/program.ts'
import type { TrainState } from '../model/train-step.ts'
import { runOnTwin } from '../model/twin-ops.ts'
import { toBase64 } from './base64.ts'
import type { GrpoRollout } from './grpo-inputs.ts'
import { genesis, type ChainPosition } from '../../core/protocol/hash-chain.ts'
import { INPUTS_FORMAT, type InputsFile } from '../../core/protocol/inputs-file.ts'
import { optimizerBytes } from './optimizer-state.ts'
import { signReceipt } from '../../core/protocol/receipt.ts'
import { trainedGroupsOf } from './trained-groups.ts'
import type { JsonObject, Receipt, ReceiptBody } from '../../core/protocol/receipt-schema.ts'
import {
  describeWork,
  generationWork,
  grpoStepWork,
  trainingStepWork,
  type TrainingOutcome,
  type WorkOutcome,
} from './receipt-work.ts'
import type { GenerationParams, GrpoParams, TrainingParams } from './work-params.ts'

/** What the work ran on: the kernels (they are in the receipt) and informative extras outside the hash. */
export interface WorkSite {
  readonly kernelsHash: string
  /** Informative extras outside the hash (device, browser, timings). */
  readonly info?: JsonObject
  /** Where the work runs: the TS twin when omitted, or a device's WGSL kernels (same bits). */
  readonly runner?: ProgramRunner
}

/** Who signs and what they ran on. */
export interface ReceiptSigner extends WorkSite {
  readonly key: PrivateKey
}

export interface ModelAtHand {
  readonly modelId: string
  readonly config: ModelConfig
  readonly params: Params
  /** The chain that produced these weights; genesis of their hash when omitted. */
  readonly chain?: ChainPosition
  /** The params' checkpoint file when the caller has it already (saves writing it again). */
  readonly checkpoint?: Uint8Array
}

/** A receipt before signing: where the peer key lives elsewhere (the main thread), it signs this. */
export interface UnsignedReceipt {
  readonly body: Omit<ReceiptBody, 'peerId'>
  /** The side file a verifier needs (src/core/protocol/inputs-file.ts). */
  readonly inputs: InputsFile
  /** Informative extras for the signed receipt's `info` (the site's, plus the work's time). */
  readonly info: JsonObject
}

export interface MadeReceipt {
  readonly receipt: Receipt
  /** The side file a verifier needs (src/core/protocol/inputs-file.ts). */
  readonly inputs: InputsFile
}

async function prepareReceipt<W extends WorkOutcome>(
  model: ModelAtHand,
  site: WorkSite,
  work: Program<W>,
  optimizer?: Uint8Array,
): Promise<UnsignedReceipt & { readonly outcome: W }> {
  const checkpoint = model.checkpoint ?? writeCheckpoint(model.config, model.params)
  const weightsHash = checkpointHash(checkpoint)
  const chain = model.chain ?? genesis(weightsHash)
  const started = performance.now()
  const outcome = await (site.runner ?? runOnTwin)(work)
  const info = { ...site.info, workMs: Math.round(performance.now() - started) }
  return {
    body: describeWork(outcome, { ...model, weightsHash, kernelsHash: site.kernelsHash, chain }),
    inputs: {
      format: INPUTS_FORMAT,
      kind: outcome.kind,
      checkpoint: toBase64(checkpoint),
      ...(optimizer ? { optimizer: toBase64(optimizer) } : {}),
      chain,
      inputs: outcome.inputs,
      trace: outcome.trace,
      outputs: outcome.outputs,
    },
    info,
    outcome,
  }
}

/** Signs a prepared receipt with the peer key; the side file goes with it unchanged. */
export async function signPrepared(prepared: UnsignedReceipt, key: PrivateKey): Promise<MadeReceipt> {
  return { receipt: await signReceipt(prepared.body, key, prepared.info), inputs: prepared.inputs }
}

/** Generates from `prompt` (on the site's runner) and signs a generation receipt for it. */
export async function buildGenerationReceipt(
  model: ModelAtHand,
  prompt: Int32Array,
  params: GenerationParams,
  seed: readonly [number, number],
  signer: ReceiptSigner,
): Promise<MadeReceipt> {
  const work = generationWork(model.config, model.params, prompt, params, seed)
  return signPrepared(await prepareReceipt(model, signer, work), signer.key)
}

/** Runs a weight-changing step from `optimizer` state and prepares its receipt; returns the new state too. */
async function prepareTrainingReceipt(
  model: ModelAtHand,
  optimizer: TrainState['optimizer'],
  site: WorkSite,
  step: (state: TrainState) => Program<TrainingOutcome>,
): Promise<UnsignedReceipt & { readonly state: TrainState }> {
  const work = step({ params: model.params, optimizer })
  const { outcome, ...prepared } = await prepareReceipt(
    model,
    site,
    work,
    optimizerBytes(model.config, optimizer),
  )
  return { ...prepared, state: outcome.state }
}

/** Runs one training step from `optimizer` state (on the site's runner) and signs a training-step receipt. */
export async function buildTrainingStepReceipt(
  model: ModelAtHand,
  optimizer: TrainState['optimizer'],
  batch: Batch,
  targets: Int32Array,
  params: TrainingParams,
  signer: ReceiptSigner,
): Promise<MadeReceipt & { readonly state: TrainState }> {
  const prepared = await prepareTrainingReceipt(model, optimizer, signer, (state) =>
    trainingStepWork(model.config, state, batch, targets, params),
  )
  return { ...(await signPrepared(prepared, signer.key)), state: prepared.state }
}

/**
 * Runs one GRPO step (on the site's runner) and prepares its receipt, unsigned (trainer.worker has no
 * key). When the rollout names its groups' origins, the receipt lists them as trainedGroups and the
 * side file carries the task ids that open their hashes.
 */
export async function prepareGrpoStepReceipt(
  model: ModelAtHand,
  optimizer: TrainState['optimizer'],
  rollout: GrpoRollout,
  params: GrpoParams,
  site: WorkSite,
): Promise<UnsignedReceipt & { readonly state: TrainState }> {
  const prepared = await prepareTrainingReceipt(model, optimizer, site, (state) =>
    grpoStepWork(model.config, state, rollout, params),
  )
  const { origins } = rollout
  if (!origins) return prepared
  return {
    ...prepared,
    body: { ...prepared.body, trainedGroups: trainedGroupsOf(rollout, origins) },
    inputs: { ...prepared.inputs, groupTasks: origins.map((o) => o.taskId) },
  }
}

/** Runs one GRPO step (on the site's runner) and signs a grpo-step receipt. */
export async function buildGrpoStepReceipt(
  model: ModelAtHand,
  optimizer: TrainState['optimizer'],
  rollout: GrpoRollout,
  params: GrpoParams,
  signer: ReceiptSigner,
): Promise<MadeReceipt & { readonly state: TrainState }> {
  const prepared = await prepareGrpoStepReceipt(model, optimizer, rollout, params, signer)
  return { ...(await signPrepared(prepared, signer.key)), state: prepared.state }
}
