// The Policy of a tab: sampling on the solver worker (onnxruntime-web, the fast f32 path) and training
// on the trainer worker (GRPO on the reproducible kernels), the new weights hot-swapped into the solver
// after every step. Prompt ids are the solver's own framing (the model's template, src/peer/solver/
// prompt-frame.ts) in the same tokenizer, so what the trainer learns from is exactly what was sampled.
import { sha256 } from '@noble/hashes/sha2.js'
import { wideToFloat } from '../../compute/kernels/ref/wide-scalar.ts'
import type { Tokenizer } from '../../compute/model/tokenizer/tokenizer.ts'
import type { SolverClient } from '../solver/solver-client.ts'
import { framePrompt } from '../solver/prompt-frame.ts'
import type { TrainerClient } from '../trainer/trainer-client.ts'
import type { TrainerStepResult } from '../trainer/trainer-session.ts'
import type { Task } from '../../core/tasks/task.ts'
import { grpoParamsOf } from '../../compute/proof/work-params.ts'
import { tokensSpellText } from './completion-text.ts'
import type { LearningConfig } from '../../core/learning/learning-config.ts'
import type { Policy, SampledCompletion } from '../../core/learning/swarm-round.ts'

export interface WorkerPolicyOptions {
  solver: Pick<SolverClient, 'generate' | 'swapWeights'>
  trainer: Pick<TrainerClient, 'step'>
  /** the model folder's tokenizer and prompt template (the solver's: promptTemplate(manifest, tokenizer)) */
  tokenizer: Tokenizer
  promptTemplate: string
  vocabSize: number
  /** the model's end-of-sequence ids (the folder's config): the solver ends a completion at one */
  eosIds: readonly number[]
  /** the model's context (config.maxSeqLen): the trainer cuts rows there */
  maxSeqLen: number
  sampling: LearningConfig['sampling']
  grpo: LearningConfig['grpo']
  /** the trainer's policy version when the policy starts (resumed trainers are past 0) */
  policyVersion: number
  /** each step's result once its weights are in the solver: the caller signs and publishes its receipt */
  onStep?: (result: TrainerStepResult) => Promise<void>
}

/** The solver's seed from the round loop's sampling key (`${swarm}/${round}/${peer}/${task}`). */
export function seedOfKey(key: string): number {
  const d = sha256(new TextEncoder().encode(key))
  return new DataView(d.buffer, d.byteOffset, 4).getUint32(0)
}

export function createWorkerPolicy(options: WorkerPolicyOptions): Policy {
  const { solver, trainer, tokenizer, sampling } = options
  let version = options.policyVersion
  const vocabulary = { tokenizer, vocabSize: options.vocabSize, eosIds: options.eosIds }

  return {
    get version() {
      return version
    },
    maxSeqLen: options.maxSeqLen,
    // framed as the solver frames a text prompt, so a group's ids are what the model sees
    promptIds: (task: Task) => tokenizer.encode(framePrompt(options.promptTemplate, task.prompt)),
    async sample(promptIds, samples, key): Promise<SampledCompletion[]> {
      const seeded = { ...sampling, seed: seedOfKey(key) }
      const { completions } = await solver.generate({ ids: promptIds }, samples, seeded)
      return completions.map((c) => ({ text: c.text, tokenIds: [...c.tokenIds], eos: c.stop === 'eos' }))
    },
    matches: (c) => tokensSpellText(c, vocabulary),
    async train(groups) {
      const result = await trainer.step(groups, grpoParamsOf(options.grpo))
      await solver.swapWeights(result.checkpoint)
      version = result.status.policyVersion
      await options.onStep?.(result)
      const { loss, kl } = result
      return {
        loss,
        ...(kl === undefined ? {} : { kl }),
        gradNorm: wideToFloat(result.gradNorm),
        weightsHash: result.status.weightsHash,
      }
    },
  }
}
