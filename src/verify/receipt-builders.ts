import type { PrivateKey } from '@libp2p/interface'
import { checkpointHash, writeCheckpoint } from '../model/checkpoint.ts'
import type { ModelConfig } from '../model/config.ts'
import type { Batch } from '../model/forward.ts'
import type { Params } from '../model/params.ts'
import type { TrainState } from '../model/train-step.ts'
import { toBase64 } from './base64.ts'
import { genesis, type ChainPosition } from './hash-chain.ts'
import { INPUTS_FORMAT, type InputsFile } from './inputs-file.ts'
import { optimizerBytes } from './optimizer-state.ts'
import { signReceipt } from './receipt.ts'
import type { JsonObject, Receipt } from './receipt-schema.ts'
import { describeWork, runGeneration, runTrainingStep, type WorkOutcome } from './receipt-work.ts'
import type { GenerationParams, TrainingParams } from './work-params.ts'

/** Who signs and what they ran on. */
export interface ReceiptSigner {
  readonly key: PrivateKey
  readonly kernelsHash: string
  /** Informative extras outside the hash (device, browser, timings). */
  readonly info?: JsonObject
}

export interface ModelAtHand {
  readonly modelId: string
  readonly config: ModelConfig
  readonly params: Params
  /** The chain that produced these weights; genesis of their hash when omitted. */
  readonly chain?: ChainPosition
}

export interface MadeReceipt {
  readonly receipt: Receipt
  /** The side file a verifier needs (src/verify/inputs-file.ts). */
  readonly inputs: InputsFile
}

async function makeReceipt(
  model: ModelAtHand,
  signer: ReceiptSigner,
  run: () => WorkOutcome,
  optimizer?: Uint8Array,
): Promise<MadeReceipt> {
  const checkpoint = writeCheckpoint(model.config, model.params)
  const weightsHash = checkpointHash(checkpoint)
  const chain = model.chain ?? genesis(weightsHash)
  const started = performance.now()
  const outcome = run()
  const info = { ...signer.info, workMs: Math.round(performance.now() - started) }
  const body = describeWork(outcome, { ...model, weightsHash, kernelsHash: signer.kernelsHash, chain })
  return {
    receipt: await signReceipt(body, signer.key, info),
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
  }
}

/** Generates from `prompt` on the TS twin and signs a generation receipt for it. */
export function buildGenerationReceipt(
  model: ModelAtHand,
  prompt: Int32Array,
  params: GenerationParams,
  seed: readonly [number, number],
  signer: ReceiptSigner,
): Promise<MadeReceipt> {
  return makeReceipt(model, signer, () => runGeneration(model.config, model.params, prompt, params, seed))
}

/** Runs one training step from `optimizer` state on the TS twin and signs a training-step receipt. */
export async function buildTrainingStepReceipt(
  model: ModelAtHand,
  optimizer: TrainState['optimizer'],
  batch: Batch,
  targets: Int32Array,
  params: TrainingParams,
  signer: ReceiptSigner,
): Promise<MadeReceipt & { readonly state: TrainState }> {
  let state: TrainState | undefined
  const made = await makeReceipt(
    model,
    signer,
    () => {
      const outcome = runTrainingStep(
        model.config,
        { params: model.params, optimizer },
        batch,
        targets,
        params,
      )
      state = outcome.state
      return outcome
    },
    optimizerBytes(model.config, optimizer),
  )
  return { ...made, state: state! }
}
