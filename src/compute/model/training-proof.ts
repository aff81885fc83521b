// The training proof of the reproducible kernels (issue 3): a small model trained for 50 supervised
// steps on a fixed toy dataset must end on the same weights hash on every backend (the TS twin in
// Node, the WGSL kernels in any browser context or worker), lose at least half its held-out loss, and
// stay within 10% of a float64 run of the same model from the same init and batches. It is a program,
// so every backend runs exactly this code.
import { seededRandom } from '../kernels/ref/seeded-random.ts'
import { toFloat } from '../kernels/ref/tensor.ts'
import { weightsHash } from './checkpoint.ts'
import type { ModelConfig } from './config.ts'
import { forwardProgram, type Batch } from './forward.ts'
import { initParams } from './params.ts'
import { op, type Program } from './program.ts'
import { TINY_CONFIG } from './test-model.ts'
import { initTrainState, trainStepProgram, type TrainConfig, type TrainState } from './train-step.ts'

/**
 * The unit tests' model cut to one layer (GQA 4→2 heads of 8, vocabulary 24): every op of the model
 * still runs, at half the dispatches per step of two layers (what a CPU WebGPU pays for).
 */
export const PROOF_CONFIG: ModelConfig = { ...TINY_CONFIG, layers: 1 }
export const PROOF_STEPS = 50
export const PROOF_INIT_SEED: readonly [number, number] = [0x5eed, 3]
/** Adam without decay: the f64 run decays only some tensors, so decay would make the runs differ by design. */
export const PROOF_TRAIN: TrainConfig = {
  lr: 1e-2,
  beta1: 0.9,
  beta2: 0.99,
  eps: 1e-8,
  weightDecay: 0,
  maxGradNorm: 1,
}
const SEQ_LEN = 8
const BATCH = 4
const EVAL_SEED = 999

/**
 * The toy task: arithmetic progressions mod V, a + j·d with d ∈ {1, 2, 3}; the model has to read the
 * step off the context. Each sequence is SEQ_LEN + 1 tokens: inputs are the first SEQ_LEN, targets
 * the last SEQ_LEN.
 */
export function proofSequences(seed: number, count: number): Int32Array[] {
  const rand = seededRandom(seed)
  const v = PROOF_CONFIG.vocabSize
  return Array.from({ length: count }, () => {
    const a = Math.floor(rand() * v)
    const d = 1 + Math.floor(rand() * 3)
    return Int32Array.from({ length: SEQ_LEN + 1 }, (_, j) => (a + j * d) % v)
  })
}

export interface ProofBatch {
  readonly inputs: Batch
  readonly targets: Int32Array
}

export function proofBatch(sequences: readonly Int32Array[]): ProofBatch {
  return {
    inputs: {
      ids: Int32Array.from(sequences.flatMap((s) => [...s.subarray(0, SEQ_LEN)])),
      batch: sequences.length,
      seqLen: SEQ_LEN,
    },
    targets: Int32Array.from(sequences.flatMap((s) => [...s.subarray(1)])),
  }
}

/** The sequences of training step `step` (a fresh batch each step, fixed by the step number). */
export const trainSequences = (step: number) => proofSequences(1 + step, BATCH)
/** Held-out sequences (a seed no training step uses). */
export const evalSequences = () => proofSequences(EVAL_SEED, 2 * BATCH)

/** Mean next-token cross-entropy (nats) of `params` on `batch`. */
export function* evalLossProgram(params: TrainState['params'], batch: ProofBatch): Program<number> {
  const { logits } = yield* forwardProgram(PROOF_CONFIG, params, batch.inputs)
  return toFloat(yield* op('crossEntropy', logits, batch.targets))[0]!
}

export interface ProofResult {
  /** The weights hash after every step, in order: a mismatch names its first step. */
  readonly stepHashes: string[]
  /** Held-out loss before the first step and after the last. */
  readonly evalLoss: { readonly first: number; readonly last: number }
  /** Training loss of every step (before its update). */
  readonly losses: number[]
}

/** Trains PROOF_CONFIG from PROOF_INIT_SEED for `steps` steps; `onStep` sees each step's number as it ends. */
export function* trainingProofProgram(
  steps = PROOF_STEPS,
  onStep?: (step: number) => void,
): Program<ProofResult> {
  let state = initTrainState(PROOF_CONFIG, initParams(PROOF_CONFIG, PROOF_INIT_SEED))
  const held = proofBatch(evalSequences())
  const first = yield* evalLossProgram(state.params, held)
  const stepHashes: string[] = []
  const losses: number[] = []
  for (let step = 0; step < steps; step++) {
    const { inputs, targets } = proofBatch(trainSequences(step))
    const result = yield* trainStepProgram(PROOF_CONFIG, state, inputs, targets, PROOF_TRAIN)
    state = result.state
    losses.push(toFloat(result.loss)[0]!)
    stepHashes.push(weightsHash(PROOF_CONFIG, state.params))
    onStep?.(step + 1)
  }
  return { stepHashes, evalLoss: { first, last: yield* evalLossProgram(state.params, held) }, losses }
}
