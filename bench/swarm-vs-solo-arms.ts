// The arms of the headline benchmark, what one arm's run is given and what it reports: shared by the
// driver (bench/swarm-vs-solo.ts) and the per-arm child process (bench/swarm-vs-solo-run.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readCheckpoint } from '../src/compute/model/checkpoint.ts'
import type { ModelConfig } from '../src/compute/model/config.ts'
import { flatFromParams } from '../src/compute/model/f64/flat-params.ts'
import { parseManifest, type ModelManifest } from '../src/compute/model/load/model-manifest.ts'
import type { HeldOutModel, ReservedCellScore } from '../src/compute/model/sft/held-out-eval.ts'
import { parseTokenizerJson } from '../src/compute/model/tokenizer/bpe-tokenizer.ts'
import type { Tokenizer } from '../src/compute/model/tokenizer/tokenizer.ts'
import type { Params } from '../src/compute/model/params.ts'
import type { LearningConfig } from '../src/core/learning/learning-config.ts'
import { DIFFICULTIES, type Difficulty } from '../src/core/tasks/task.ts'

/** Sharing with RL Swarm's uniform draw, sharing with groups that carry a signal first, and alone. */
export const ARMS = ['swarm', 'swarm-signal', 'solo'] as const
export type Arm = (typeof ARMS)[number]

/** Peers per arm: every arm's peers start from the same weights. */
export const PEERS = 4

/**
 * What a run varies (the ablation's axes): every arm generates `groups` groups of `groupSize` rollouts per
 * peer and round and takes one step at `lr`, with a KL penalty of `klBeta` (0: none); `curriculum` false
 * fills the free slots uniformly (an empty curriculum's seeded order) instead of by the peer's curriculum.
 */
export interface BenchRecipe {
  groupSize: number
  groups: number
  lr: number
  klBeta: number
  curriculum: boolean
  /** new tokens a completion may sample: a model that writes its working needs room for it */
  maxNewTokens: number
  /** optimizer steps a round on the round's batch (src/peer/peer/reproducible-policy.ts `epochs`) */
  epochs: number
  /**
   * `all`: a sharing arm's step takes every own group and as many heard ones (twice solo's batch, the
   * same rollouts generated and steps taken); absent: half own and half heard, solo's batch size
   */
  heard?: 'all'
  /**
   * `signal-by-cell`: the swarm-signal arm picks signal first within each cell's share of the own draw
   * (learning-config.ts SapoPick); absent: signal first over all groups
   */
  pick?: 'signal-by-cell'
  /** the lr's cosine decay from `lr` to this over the run's rounds (LrSchedule); absent: `lr` throughout */
  lrMin?: number
}

/**
 * A cosine decay of the step's lr from the recipe's to `minLr` over `steps` optimizer steps, then `minLr`:
 * an ablation of whether a step that slows down late keeps what it learned (300 rounds at a constant lr
 * forget, docs/headline-bench.md). Headless only: a swarm's config names one lr.
 */
export interface LrSchedule {
  kind: 'cosine'
  minLr: number
  steps: number
}

/** The lr of step `step` (0-based) under `schedule`, from the recipe's `lr`. */
export const scheduledLr = (lr: number, { minLr, steps }: LrSchedule, step: number): number =>
  step >= steps ? minLr : minLr + ((lr - minLr) * (1 + Math.cos((Math.PI * step) / steps))) / 2

/**
 * One arm's learning config: every arm generates the same `groups` groups a round (same tasks, one
 * swarm id per seed) and takes one step; solo trains on all its own groups, sharing arms on half their
 * own and half heard (the same batch size), or with `heard: 'all'` on all their own and as many heard.
 * So the rollouts generated and the optimizer steps per peer are the same in every arm.
 */
export function learningFor(arm: Arm, base: LearningConfig, batch: BenchRecipe): LearningConfig {
  // klBeta absent means no penalty (receipts without one hash as they always did)
  const withBeta = { ...base.grpo, lr: batch.lr, klBeta: batch.klBeta }
  const { klBeta, ...noPenalty } = withBeta
  const grpo = klBeta === 0 ? noPenalty : withBeta
  const sampling = { ...base.sampling, maxNewTokens: batch.maxNewTokens }
  const shared = { ...base, groupSize: batch.groupSize, tasksPerRound: batch.groups, sampling, grpo }
  if (arm === 'solo') return { ...shared, sapo: { localGroups: batch.groups, externalGroups: 0 } }
  const external = batch.heard === 'all' ? batch.groups : Math.floor(batch.groups / 2)
  if (external === 0) throw new RangeError('a sharing arm needs at least 2 groups a step (1 own, 1 heard)')
  return {
    ...shared,
    sapo: {
      localGroups: batch.heard === 'all' ? batch.groups : batch.groups - external,
      externalGroups: external,
      pick: arm === 'swarm' ? 'uniform' : (batch.pick ?? 'signal'),
    },
  }
}

/** The difficulties the draw covers and the next one up (the held-out mix). */
export const evalDifficulties = ({ difficulties: { min, max } }: LearningConfig): Difficulty[] =>
  DIFFICULTIES.filter((d) => d >= min && d <= max + 1)

/** The families the draw covers: a run on some families is judged on those alone. */
export const evalFamilies = ({ sources }: LearningConfig): string[] =>
  sources.flatMap((s) => (s.kind === 'reasoning' ? [s.family] : []))

/** Reserved prompts per family for a curve point, spread over the eval difficulties. */
export const CURVE_PER_FAMILY = 100

/** A model folder as the bench reads it: the checkpoint, its tokenizer and prompt template. */
export interface BenchModel {
  folder: string
  config: ModelConfig
  params: Params
  tokenizer: Tokenizer
  manifest: ModelManifest
  eosId: number
}

export function loadBenchModel(folder: string): BenchModel {
  const read = (name: string) => readFileSync(join(folder, name))
  const { config, params } = readCheckpoint(read('model.safetensors'))
  const tokenizer = parseTokenizerJson(JSON.parse(read('tokenizer.json').toString('utf8')))
  const eosId = tokenizer.tokenId('<|endoftext|>')
  if (eosId === undefined) throw new Error(`${folder}: the tokenizer has no <|endoftext|>`)
  return { folder, config, params, tokenizer, manifest: parseManifest(read('tabswarm.json')), eosId }
}

/** The float64 greedy decoder's view of some weights of the bench's model. */
export const heldOutModel = (model: BenchModel, params: Params): HeldOutModel => ({
  config: model.config,
  views: flatFromParams(model.config, params).views,
  tokenizer: model.tokenizer,
  stopToken: model.eosId,
})

/** What the driver hands one arm's child process (as JSON on its command line). */
export interface ArmSpec {
  arm: Arm
  seed: number
  rounds: number
  evalEvery: number
  model: string
  learning: LearningConfig
  /** false: the free slots are filled uniformly, not by the peers' curricula (an ablation) */
  curriculum: boolean
  /** a finished solo run of the same seed whose curriculum choices this run replays */
  replay?: string
  /** optimizer steps a round on the same batch; absent: 1 (a spec saved before it hashes as it did) */
  epochs?: number
  /** the lr's schedule over the run's steps; absent: `learning.grpo.lr` throughout (likewise) */
  lrSchedule?: LrSchedule
}

/** One held-out evaluation of an arm: its peers split the prompts, so this is the mean over peers. */
export interface ArmEval {
  round: number
  pass: number
  ci95: [number, number]
  formatFailures: number
  tasks: number
}

export interface ArmResult {
  spec: ArmSpec
  /** the model's weights hash (its manifest's), so a resumed run is known to be of the same model */
  weightsHash: string
  /** [round][peer] mean reward of the peer's own completions */
  reward: number[][]
  /** [round][peer] groups of the peer's training step whose rewards differ (the rest have zero advantage) */
  informative: number[][]
  /** every evaluation after the start (the start is the driver's: every arm's peers begin alike) */
  evals: ArmEval[]
  /** the last round's full-set evaluation, cell by cell (pooled over the peers' shares) */
  endCells: ReservedCellScore[]
  /**
   * [round][peer] the cells (cellKey) its curriculum chose for the free slots of its draw: an arm run
   * with another's choices replays them, so every arm draws the same tasks per peer and round
   */
  choices: string[][][]
  /**
   * [round][cellKey] [successes, completions] of the peers' own groups: a cell's own success rate over
   * the rounds, which the mean reward mixes with the round's draw (absent in results older than it)
   */
  successes?: Record<string, [number, number]>[]
  /** [round] share of the peers' own completions that answer bare (`<answer>` first, no working) */
  bare?: number[]
  seconds: number
}
