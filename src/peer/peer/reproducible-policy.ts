// A Policy on the reproducible kernels alone (the TS twin here; WGSL in trainer.worker): sampling with
// the integer forward and Philox draws, training with grpoStep. Headless peers, the simulation and the
// benchmarks use it; every completion and every step is bit-reproducible from (weights, prompt, key).
import { sha256 } from '@noble/hashes/sha2.js'
import { weightsHash } from '../../compute/model/checkpoint.ts'
import type { ModelConfig } from '../../compute/model/config.ts'
import { generateGroups } from '../../compute/model/generate.ts'
import { grpoStep, tokenLogProbsOf, type GrpoConfig } from '../../compute/model/grpo-step.ts'
import type { Params } from '../../compute/model/params.ts'
import type { Tokenizer } from '../../compute/model/tokenizer/tokenizer.ts'
import { initTrainState, type TrainState } from '../../compute/model/train-step.ts'
import { toFloat } from '../../compute/kernels/ref/tensor.ts'
import { wideToFloat } from '../../compute/kernels/ref/wide-scalar.ts'
import type { Task } from '../../core/tasks/task.ts'
import { completionText, tokensSpellText } from './completion-text.ts'
import type { LearningConfig } from '../../core/learning/learning-config.ts'
import { buildRolloutBatch } from '../../compute/model/rollout-batch.ts'
import type { Policy, SampleRequest, SampledCompletion } from '../../core/learning/swarm-round.ts'

export interface ReproduciblePolicyOptions {
  config: ModelConfig
  params: Params
  tokenizer: Tokenizer
  /** frames a task prompt for the model; `{prompt}` is replaced (docs/model-folder.md) */
  promptTemplate: string
  eosId: number
  sampling: LearningConfig['sampling']
  /** with klBeta > 0, the penalty's reference policy is `params`, the weights the policy starts from */
  grpo: GrpoConfig
  /**
   * Optimizer steps per training batch (default 1, the swarm's on-policy step). More reuse a round's
   * rollouts PPO-style: the old log-probs are the batch's first forward, so later steps' ratios are
   * clipped against the policy that sampled it. Headless only for now: a tab's receipt names one step.
   */
  epochs?: number
  /**
   * The lr of the policy's n-th training batch (0-based), a schedule over its steps; absent: `grpo.lr`
   * throughout. Headless only, as `epochs`: a swarm's config, and so a tab's receipts, name one lr.
   */
  lrAt?: (step: number) => number
}

export interface ReproduciblePolicy extends Policy {
  readonly state: TrainState
}

/** Two Philox key words from a text key (the round loop's `${swarm}/${round}/${peer}/${task}`). */
function philoxSeed(key: string): [number, number] {
  const d = sha256(new TextEncoder().encode(key))
  const v = new DataView(d.buffer, d.byteOffset, 8)
  return [v.getUint32(0), v.getUint32(4)]
}

export function createReproduciblePolicy(options: ReproduciblePolicyOptions): ReproduciblePolicy {
  const { config, tokenizer, eosId, sampling, epochs = 1, lrAt } = options
  if (!Number.isInteger(epochs) || epochs < 1)
    throw new RangeError(`a reproducible policy takes ≥ 1 whole optimizer steps per batch, got ${epochs}`)
  let state = initTrainState(config, options.params)
  let version = 0
  const vocabulary = { tokenizer, vocabSize: config.vocabSize, eosIds: [eosId] }
  const sampleMany = async (requests: readonly SampleRequest[]): Promise<SampledCompletion[][]> => {
    // every prompt's G rows decoded side by side: row i of a request is generate's with step i
    const groups = generateGroups(
      config,
      state.params,
      requests.map(({ promptIds, samples, key }) => ({
        prompt: Int32Array.from(promptIds),
        seed: philoxSeed(key),
        steps: Array.from({ length: samples }, (_, i) => i),
      })),
      {
        maxNewTokens: sampling.maxNewTokens,
        sampling: {
          temperatureQ16: Math.round(sampling.temperature * 2 ** 16),
          topK: sampling.topK,
          topPQ30: Math.round(sampling.topP * 2 ** 30),
        },
        eosToken: eosId,
      },
    )
    return groups.map((rows) =>
      rows.map((g) => {
        const tokenIds = [...g.tokens]
        return { text: completionText(tokenIds, vocabulary), tokenIds, eos: g.finishReason === 'eos_token' }
      }),
    )
  }
  return {
    get version() {
      return version
    },
    get state() {
      return state
    },
    maxSeqLen: config.maxSeqLen,
    promptIds: (task: Task) => tokenizer.encode(options.promptTemplate.replace('{prompt}', task.prompt)),
    async sample(promptIds, samples, key) {
      const [completions] = await sampleMany([{ promptIds, samples, key }])
      return completions!
    },
    sampleMany,
    matches: (c) => tokensSpellText(c, vocabulary),
    async train(groups) {
      const batch = buildRolloutBatch(groups, eosId, config.maxSeqLen)
      // the KL penalty's reference: the weights the policy started from
      const ref = options.grpo.klBeta ? tokenLogProbsOf(config, options.params, batch) : undefined
      // the first step is on-policy (its own forward gives the old log-probs); later ones keep those
      const old = epochs > 1 ? tokenLogProbsOf(config, state.params, batch) : undefined
      const grpo = lrAt ? { ...options.grpo, lr: lrAt(version) } : options.grpo
      let step = grpoStep(config, state, batch, undefined, grpo, undefined, ref)
      for (let e = 1; e < epochs; e++) step = grpoStep(config, step.state, batch, old, grpo, undefined, ref)
      state = step.state
      version++
      const kl = step.kl && toFloat(step.kl)[0]!
      return {
        loss: toFloat(step.loss)[0]!,
        ...(kl === undefined ? {} : { kl }),
        gradNorm: wideToFloat(step.gradNorm),
        weightsHash: weightsHash(config, state.params),
      }
    },
  }
}
