import type { PrivateKey } from '@libp2p/interface'
import type { Batch } from '../../compute/model/forward.ts'
import { tokenLogProbsOf } from '../../compute/model/grpo-step.ts'
import { initParams } from '../../compute/model/params.ts'
import type { ProgramRunner } from '../../compute/model/program.ts'
import { TINY_CONFIG } from '../../compute/model/test-model.ts'
import { initTrainState } from '../../compute/model/train-step.ts'
import type { TokenizedGroup } from '../../core/learning/tokenized-group.ts'
import { jsonHash } from '../../core/protocol/digest.ts'
import { rolloutFromGroups } from '../../compute/proof/grpo-inputs.ts'
import { TEST_MODEL_ID } from '../../compute/proof/models.ts'
import {
  buildGenerationReceipt,
  buildGrpoStepReceipt,
  buildTrainingStepReceipt,
  type MadeReceipt,
  type ModelAtHand,
} from '../../compute/proof/receipt-builders.ts'
import type { GenerationParams, GrpoParams, TrainingParams } from '../../compute/proof/work-params.ts'

/**
 * One generation, one training step and one GRPO step of the test model, with fixed seeds: the receipts that the
 * tests tamper with and that `npm run receipt -- demo <dir>` writes for trying the CLI (or a Verify
 * view) by hand.
 */
export const DEMO_MODEL: ModelAtHand = {
  modelId: TEST_MODEL_ID,
  config: TINY_CONFIG,
  params: initParams(TINY_CONFIG, [5, 0]),
}

export const DEMO_PROMPT = Int32Array.of(3, 17, 5)
export const DEMO_GENERATION: GenerationParams = {
  maxNewTokens: 5,
  temperatureQ16: 65536,
  topK: 0,
  topPQ30: 2 ** 30,
  step: 0,
  eosToken: null,
}
export const DEMO_SEED = [1, 2] as const

/** A toy next-token task: each sequence counts upward modulo the vocabulary. */
export const DEMO_BATCH: Batch = {
  ids: Int32Array.from({ length: 2 * 6 }, (_, i) => (3 * Math.floor(i / 6) + (i % 6)) % 24),
  batch: 2,
  seqLen: 6,
}
export const DEMO_TARGETS = Int32Array.from(DEMO_BATCH.ids, (id) => (id + 1) % 24)
export const DEMO_TRAINING: TrainingParams = {
  lr: 1e-2,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 0,
  maxGradNorm: 1,
}

/** `runner` runs the work (the TS twin when omitted; a device's WGSL kernels give the same receipt). */
export function demoGeneration(
  key: PrivateKey,
  kernelsHash: string,
  model = DEMO_MODEL,
  runner?: ProgramRunner,
): Promise<MadeReceipt> {
  const signer = { key, kernelsHash, runner }
  return buildGenerationReceipt(model, DEMO_PROMPT, DEMO_GENERATION, DEMO_SEED, signer)
}

export function demoTrainingStep(
  key: PrivateKey,
  kernelsHash: string,
  model = DEMO_MODEL,
  runner?: ProgramRunner,
): Promise<MadeReceipt> {
  const { optimizer } = initTrainState(model.config, model.params)
  const signer = { key, kernelsHash, runner }
  return buildTrainingStepReceipt(model, optimizer, DEMO_BATCH, DEMO_TARGETS, DEMO_TRAINING, signer)
}

/**
 * Two groups of three completions with mixed rewards, so that every row has a non-zero advantage; one
 * the peer's own, one heard, so that the receipt lists both in trainedGroups.
 */
export const DEMO_GROUPS: readonly TokenizedGroup[] = [
  {
    promptIds: [3, 17, 5],
    completions: [
      [6, 7, 2],
      [9, 1],
      [6, 8, 8, 2],
    ],
    rewards: [1, 0, 0.25],
    origin: { from: 'demo-peer-own', taskId: jsonHash('demo task 0') },
  },
  {
    promptIds: [4, 4],
    completions: [
      [11, 2],
      [12, 13, 2],
      [11, 11],
    ],
    rewards: [0, 0, 1],
    origin: { from: 'demo-peer-heard', taskId: jsonHash('demo task 1') },
  },
]
/** The padding (and end-of-sequence) token of the demo rollouts. */
export const DEMO_PAD_ID = 2
export const DEMO_GRPO: GrpoParams = { ...DEMO_TRAINING, clipEps: 0.2, clipEpsHigh: 0.28 }

export function demoGrpoStep(key: PrivateKey, kernelsHash: string, model = DEMO_MODEL): Promise<MadeReceipt> {
  const { optimizer } = initTrainState(model.config, model.params)
  const rollout = rolloutFromGroups(DEMO_GROUPS, DEMO_PAD_ID, model.config.maxSeqLen)
  return buildGrpoStepReceipt(model, optimizer, rollout, DEMO_GRPO, { key, kernelsHash })
}

/** DEMO_GRPO with a KL penalty against DEMO_REFERENCE. */
export const DEMO_GRPO_KL: GrpoParams = { ...DEMO_GRPO, klBeta: 0.04 }
/** The KL demo's reference policy: other weights than DEMO_MODEL's, so that the KL is not 0. */
export const DEMO_REFERENCE = initParams(TINY_CONFIG, [5, 1])

/** A GRPO step with a KL penalty: the reference log-probs (of `reference`) join the step's inputs. */
export function demoGrpoKlStep(
  key: PrivateKey,
  kernelsHash: string,
  model = DEMO_MODEL,
  reference = DEMO_REFERENCE,
): Promise<MadeReceipt> {
  const { optimizer } = initTrainState(model.config, model.params)
  const rollout = rolloutFromGroups(DEMO_GROUPS, DEMO_PAD_ID, model.config.maxSeqLen)
  const refLogProbs = tokenLogProbsOf(model.config, reference, rollout.batch)
  return buildGrpoStepReceipt(model, optimizer, { ...rollout, refLogProbs }, DEMO_GRPO_KL, {
    key,
    kernelsHash,
  })
}
