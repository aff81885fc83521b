// The recipe and the step loop of tabswarm-tiny's supervised training. Everything that decides the
// result is in the recipe and committed to in the chain's genesis hash; the run is a pure function of
// it (seeded data order, seeded init, fixed-order float64 arithmetic).
import type { ModelConfig } from '../config.ts'
import { initParams } from '../params.ts'
import { adamWState, type AdamWSettings, type AdamWState } from '../f64/adamw.ts'
import { flatFromParams, type FlatParams } from '../f64/flat-params.ts'
import { applyGradient, batchGradient, type BatchGradient, type SftSequence } from '../f64/sft-step.ts'
import { parseTokenizerJson } from '../tokenizer/bpe-tokenizer.ts'
import type { Tokenizer } from '../tokenizer/tokenizer.ts'
import { trainBpe } from '../tokenizer/train-bpe.ts'
import {
  answerTarget,
  encodeExample,
  END_OF_TEXT,
  framePrompt,
  mixSlots,
  trainingExample,
  type HeldOutRule,
  type MixEntry,
  type Workings,
} from './sft-data.ts'
import { float64Hash, genesisHash, sha256Hex, stepHash } from './training-chain.ts'

export interface TrainingHyperparameters extends AdamWSettings {
  /** Length of the learning-rate schedule: the run's last step unless stopAfter ends it sooner. */
  readonly steps: number
  /**
   * The run ends after this step of the `steps`-long schedule: the step a periodic held-out evaluation
   * picked (scripts/train-solver-model.ts --eval-every). Not in the genesis hash: it changes no step,
   * only where the chain ends, so a run stopped early replays the full run's chain prefix bit for bit.
   */
  readonly stopAfter?: number
  /** Sequences per step. */
  readonly batchSize: number
  /** Peak learning rate, reached after warmupSteps (linear), then cosine down to minLr at `steps`. */
  readonly lr: number
  readonly minLr: number
  readonly warmupSteps: number
  readonly mix: readonly MixEntry[]
  /** Keep the data clear of the held-out prompts (sft-data.ts); absent in recipes that predate it. */
  readonly heldOut?: HeldOutRule
  /** The tokenizer is trained on the first tokenizerSeeds training tasks of every mix entry. */
  readonly tokenizerSeeds: number
  /** Whose worked solutions the targets carry; absent: modular arithmetic's only (see Workings). */
  readonly workings?: Workings
}

export interface SolverRecipe {
  readonly config: ModelConfig
  readonly hyperparameters: TrainingHyperparameters
  /** Seed of initParams (two u32 words). */
  readonly initSeed: readonly [number, number]
}

/** The number of the run's last step. */
export function lastStep(h: TrainingHyperparameters): number {
  if (
    h.stopAfter !== undefined &&
    !(Number.isInteger(h.stopAfter) && h.stopAfter >= 1 && h.stopAfter <= h.steps)
  )
    throw new RangeError(`stopAfter must be an integer in 1…${h.steps} (got ${h.stopAfter})`)
  return h.stopAfter ?? h.steps
}

export function learningRate(h: TrainingHyperparameters, step: number): number {
  if (step <= h.warmupSteps) return (h.lr * step) / h.warmupSteps
  const progress = Math.min(1, (step - h.warmupSteps) / Math.max(1, h.steps - h.warmupSteps))
  return h.minLr + 0.5 * (h.lr - h.minLr) * (1 + Math.cos(Math.PI * progress))
}

/** tokenizer.json's exact text (the bytes the chain and the manifest hash). */
export function trainSolverTokenizer(recipe: SolverRecipe): string {
  const { mix, tokenizerSeeds } = recipe.hyperparameters
  const texts: string[] = []
  for (const entry of mix)
    for (let seed = 0; seed < tokenizerSeeds; seed++) {
      const example = trainingExample([{ ...entry, weight: 1 }], seed, recipe.hyperparameters)
      texts.push(framePrompt(example.task) + answerTarget(example))
    }
  const json = trainBpe(texts, { vocabSize: recipe.config.vocabSize, specialTokens: [END_OF_TEXT] })
  return JSON.stringify(json)
}

export interface TrainingRun {
  readonly recipe: SolverRecipe
  readonly tokenizerText: string
  readonly tokenizer: Tokenizer
  readonly model: FlatParams
  readonly optimizer: AdamWState
  readonly slots: readonly MixEntry[]
  readonly genesis: string
  step: number
  hash: string
}

export interface ChainStep {
  readonly step: number
  readonly loss: number
  readonly gradNorm: number
  readonly lr: number
  readonly hash: string
}

export function startRun(recipe: SolverRecipe): TrainingRun {
  const tokenizerText = trainSolverTokenizer(recipe)
  const tokenizer = parseTokenizerJson(JSON.parse(tokenizerText))
  if (tokenizer.vocabSize !== recipe.config.vocabSize)
    throw new RangeError(
      `the trained tokenizer has ${tokenizer.vocabSize} tokens but config.vocabSize is ${recipe.config.vocabSize}: ` +
        'lower vocabSize to what the training texts support',
    )
  const model = flatFromParams(
    recipe.config,
    initParams(recipe.config, [recipe.initSeed[0], recipe.initSeed[1]]),
  )
  const genesis = genesisHash({
    config: recipe.config,
    // canonicalJson leaves undefined out: stopAfter's absence and its value hash alike (see its doc).
    hyperparameters: { ...recipe.hyperparameters, stopAfter: undefined },
    initSeed: recipe.initSeed,
    tokenizerHash: sha256Hex(new TextEncoder().encode(tokenizerText)),
  })
  return {
    recipe,
    tokenizerText,
    tokenizer,
    model,
    optimizer: adamWState(model.specs),
    slots: mixSlots(recipe.hyperparameters.mix),
    genesis,
    step: 0,
    hash: genesis,
  }
}

/** The next step's batch: examples step·batchSize … (step + 1)·batchSize − 1 of the data order. */
export function nextBatch(run: TrainingRun): SftSequence[] {
  const h = run.recipe.hyperparameters
  const last = lastStep(h)
  if (run.step >= last) throw new RangeError(`the run is complete after ${last} steps`)
  return Array.from({ length: h.batchSize }, (_, i) => {
    const example = trainingExample(run.slots, run.step * h.batchSize + i, h)
    const seq = encodeExample(run.tokenizer, example)
    if (seq.ids.length - 1 > run.recipe.config.maxSeqLen)
      throw new RangeError(
        `a ${example.task.family} task needs ${seq.ids.length - 1} positions; raise maxSeqLen`,
      )
    return seq
  })
}

/** Applies the gradient of nextBatch(run), whoever computed it, and extends the chain. */
export function completeStep(run: TrainingRun, gradient: BatchGradient): ChainStep {
  const h = run.recipe.hyperparameters
  run.step++
  const lr = learningRate(h, run.step)
  const { loss, gradNorm } = applyGradient(run.model, run.optimizer, h, lr, gradient)
  run.hash = stepHash(run.hash, run.step, loss, float64Hash(run.model.data))
  return { step: run.step, loss, gradNorm, lr, hash: run.hash }
}

/** Runs the next step on this thread. */
export function runStep(run: TrainingRun): ChainStep {
  return completeStep(run, batchGradient(run.model, nextBatch(run)))
}
