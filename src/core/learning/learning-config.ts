// What defines a learning swarm beyond its network: the task mix, G, SAPO's L/E, sampling and GRPO
// settings. It travels in the swarm config, so a researcher starts a new swarm by sharing a link.
import type { Difficulty } from '../tasks/task.ts'
import type { GrpoObjective } from './grpo-objective.ts'
import { explorationSlots, SHARE_WINDOW_ROUNDS, type Cell, type TaskSource } from './round-tasks.ts'

/**
 * How groups are drawn. `uniform`: at random among all (RL Swarm). `signal`: at random among the groups
 * whose rewards differ first, the others only to fill up — a group whose rewards are all equal has zero
 * advantage and adds nothing to a GRPO step, so a peer that hears a dozen groups can fill its step with
 * ones that teach (bench/swarm-vs-solo measures both). `signal-by-cell`: `signal` with no cell taking
 * more than its share of the peer's own draw, so the step keeps the draw's mix: the cells whose groups
 * differ most often otherwise fill the heard half, and the others are forgotten (docs/headline-bench.md,
 * 300 rounds).
 */
export type SapoPick = 'uniform' | 'signal' | 'signal-by-cell'

export const SAPO_PICKS: readonly SapoPick[] = ['uniform', 'signal', 'signal-by-cell']

export interface SapoCounts {
  /** local groups per step (the SAPO paper's best setting: 2 groups of G=2, L=4) */
  localGroups: number
  /** external groups per step (E=4 as 2 groups of G=2) */
  externalGroups: number
  /** `uniform` when absent */
  pick?: SapoPick
}

export interface LearningConfig {
  /**
   * The tabswarm model folder the swarm learns (docs/model-folder.md): a path on the app's origin
   * (`/models/tabswarm-micro/`) or an http(s) URL. Every peer starts from its weights.
   */
  model: string
  /** the part of a round after which the collection window closes (the rest is for training) */
  windowFraction: number
  /** rounds between held-out evaluations (greedy pass@1 on a fixed task set) */
  evalEvery: number
  sources: TaskSource[]
  /**
   * the difficulties drawn, both ends included: with `sources` they make the draw's cells
   * (learningCells), each of which keeps its share of every peer's draw. A config written before the
   * range existed names one `difficulty` (the level its peers started at) and is read as {min: it, max: it}.
   */
  difficulties: { min: Difficulty; max: Difficulty }
  /** G: completions per task */
  groupSize: number
  /** tasks (groups) a peer generates per round */
  tasksPerRound: number
  sapo: SapoCounts
  sampling: { temperature: number; topK: number; topP: number; maxNewTokens: number }
  /**
   * The objective (grpo-objective.ts; klBeta's reference is the weights the peer started from, in
   * [0, 1]) and AdamW's step size, decay and gradient-norm limit; Adam's moments are the usual ones.
   */
  grpo: GrpoObjective & {
    lr: number
    maxGradNorm: number
    weightDecay: number
  }
}

/** The draw's cells: every source at every allowed difficulty, sources first (the rotation's order). */
export const learningCells = (learning: Pick<LearningConfig, 'sources' | 'difficulties'>): Cell[] =>
  learning.sources.flatMap((source) =>
    Array.from({ length: learning.difficulties.max - learning.difficulties.min + 1 }, (_, i) => ({
      ...source,
      difficulty: (learning.difficulties.min + i) as Difficulty,
    })),
  )

/**
 * The recipe the learning benches measured best (docs/headline-bench.md): the next model, which writes
 * its working, on the two families where its groups disagree and a working can be sharpened; G = 8 and
 * 8 tasks a round (a group at p = 0.16 differs with chance 0.75, against 0.50 at G = 4), half of them
 * heard with the groups that carry a signal first, at the lr whose steps go the right way.
 */
export const DEFAULT_LEARNING: Readonly<LearningConfig> = {
  model: '/models/tabswarm-next/',
  windowFraction: 0.6,
  evalEvery: 5,
  // propositional logic is left out: its ½ success rate is a guess the curriculum piled onto, at the cost
  // of the families with a method; arithmetic, base conversion and sorting at d2 almost never differ
  sources: [
    { kind: 'reasoning', family: 'fraction-simplification' },
    { kind: 'reasoning', family: 'modular-arithmetic' },
  ],
  // the levels the model was trained on: 4 cells, each keeping its share of the curriculum's draw
  difficulties: { min: 1, max: 2 },
  groupSize: 8,
  tasksPerRound: 8,
  sapo: { localGroups: 4, externalGroups: 4, pick: 'signal' },
  // every difficulty-2 working fits 64 new tokens (docs/solver-model.md)
  sampling: { temperature: 1, topK: 0, topP: 1, maxNewTokens: 64 },
  // 1e-3 collapses the policy within 10 rounds and 3e-4 forgets modular d1 (docs/headline-bench.md)
  grpo: { lr: 1e-4, clipEps: 0.2, clipEpsHigh: 0.28, maxGradNorm: 1, weightDecay: 0 },
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Largest G and tasks per round a swarm may ask for: a rollouts message holds ≤ 16 groups. */
export const MAX_GROUP_SIZE = 16
export const MAX_TASKS_PER_ROUND = 16

/** Longest model location accepted: a URL, not a payload. */
const MAX_MODEL_LOCATION = 2048

/** A path on the app's origin (starting with one `/`) or an absolute http(s) URL. */
function isModelLocation(model: string): boolean {
  if (model.length === 0 || model.length > MAX_MODEL_LOCATION) return false
  if (model.startsWith('/')) return !model.startsWith('//')
  try {
    const { protocol } = new URL(model)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * The model a section written before `model` existed learns: the one every swarm learned then. Not
 * DEFAULT_LEARNING.model, so such a config keeps its meaning and its swarm id when the default moves.
 */
export const MODEL_BEFORE_THE_FIELD = '/models/tabswarm-tiny/'

/**
 * Checks an untrusted learning section (from a shared swarm config link); returns it typed or throws a
 * RangeError naming the field. Task families must exist here, so a swarm cannot ask for tasks a peer
 * cannot generate and verify.
 */
export function parseLearningConfig(
  value: unknown,
  familyExists: (source: TaskSource) => boolean,
): LearningConfig {
  const fail = (what: string): never => {
    throw new RangeError(`learning: ${what}`)
  }
  const int = (v: unknown, min: number, max: number, what: string): number =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max
      ? (v as number)
      : fail(`${what} must be an integer in ${min}–${max}`)
  const num = (v: unknown, min: number, max: number, what: string): number =>
    typeof v === 'number' && v >= min && v <= max ? v : fail(`${what} must be a number in ${min}–${max}`)
  if (!isObject(value)) return fail('not an object')
  const { sources, difficulty, difficulties, groupSize, tasksPerRound, sapo, sampling, grpo } = value
  const { model = MODEL_BEFORE_THE_FIELD, windowFraction = DEFAULT_LEARNING.windowFraction } = value
  const { evalEvery = DEFAULT_LEARNING.evalEvery } = value
  if (typeof model !== 'string' || !isModelLocation(model))
    return fail('model must be a path on this origin (/models/…/) or an http(s) URL of a model folder')
  if (!Array.isArray(sources) || sources.length === 0)
    return fail('sources must list at least one task family')
  const parsedSources = sources.map((s, i): TaskSource => {
    if (!isObject(s) || (s.kind !== 'reasoning' && s.kind !== 'code') || typeof s.family !== 'string')
      return fail(`sources[${i}] must be {kind: "reasoning" | "code", family}`)
    const source: TaskSource = { kind: s.kind === 'code' ? 'code' : 'reasoning', family: s.family }
    return familyExists(source) ? source : fail(`sources[${i}]: no ${s.kind} task family "${s.family}"`)
  })
  if (!isObject(sapo)) return fail('sapo must be {localGroups, externalGroups, pick?}')
  if (!isObject(sampling)) return fail('sampling must be {temperature, topK, topP, maxNewTokens}')
  if (!isObject(grpo)) return fail('grpo must be {lr, clipEps, clipEpsHigh, maxGradNorm, weightDecay}')
  const localGroups = int(sapo.localGroups, 1, MAX_TASKS_PER_ROUND, 'sapo.localGroups')
  const externalGroups = int(sapo.externalGroups, 0, MAX_TASKS_PER_ROUND, 'sapo.externalGroups')
  const perRound = int(tasksPerRound, 1, MAX_TASKS_PER_ROUND, 'tasksPerRound')
  if (localGroups > perRound)
    fail('sapo.localGroups cannot exceed tasksPerRound (a peer trains on its own groups)')
  const pick = sapo.pick ?? 'uniform'
  if (!SAPO_PICKS.includes(pick as SapoPick))
    fail(`sapo.pick must be one of ${SAPO_PICKS.map((p) => `"${p}"`).join(', ')}`)
  const klBeta = grpo.klBeta === undefined ? 0 : num(grpo.klBeta, 0, 1, 'grpo.klBeta')
  const range = parseDifficulties(difficulties, difficulty, int)
  const cells = parsedSources.length * (range.max - range.min + 1)
  if (explorationSlots(perRound, cells) === undefined)
    fail(
      `${cells} cells (sources × difficulties) cannot each keep 1/(4 × ${cells}) of a ${SHARE_WINDOW_ROUNDS}-round draw of ${perRound} tasks per round: allow fewer, or draw more tasks per round`,
    )
  return {
    model,
    windowFraction: num(windowFraction, 0.05, 0.95, 'windowFraction'),
    evalEvery: int(evalEvery, 1, 1_000_000, 'evalEvery'),
    sources: parsedSources,
    difficulties: range,
    groupSize: int(groupSize, 2, MAX_GROUP_SIZE, 'groupSize'),
    tasksPerRound: perRound,
    // uniform is left out, so configs written before `pick` existed keep their swarm id
    sapo: { localGroups, externalGroups, ...(pick === 'uniform' ? {} : { pick: pick as SapoPick }) },
    sampling: {
      temperature: num(sampling.temperature, 0, 4, 'sampling.temperature'),
      topK: int(sampling.topK, 0, 1_000_000, 'sampling.topK'),
      topP: num(sampling.topP, 0.01, 1, 'sampling.topP'),
      maxNewTokens: int(sampling.maxNewTokens, 1, 4096, 'sampling.maxNewTokens'),
    },
    grpo: {
      lr: num(grpo.lr, 1e-8, 1, 'grpo.lr'),
      clipEps: num(grpo.clipEps, 0.001, 0.999, 'grpo.clipEps'),
      clipEpsHigh: num(grpo.clipEpsHigh, 0.001, 0.999, 'grpo.clipEpsHigh'),
      maxGradNorm: num(grpo.maxGradNorm, 1e-6, 1e6, 'grpo.maxGradNorm'),
      weightDecay: num(grpo.weightDecay, 0, 1, 'grpo.weightDecay'),
      ...(klBeta > 0 ? { klBeta } : {}),
    },
  }
}

/** The allowed range: `difficulties` {min, max}, or a config's older single `difficulty` as both ends. */
function parseDifficulties(
  difficulties: unknown,
  difficulty: unknown,
  int: (v: unknown, min: number, max: number, what: string) => number,
): LearningConfig['difficulties'] {
  if (difficulties === undefined) {
    const level = int(difficulty, 1, 5, 'difficulty') as Difficulty
    return { min: level, max: level }
  }
  if (!isObject(difficulties) || difficulty !== undefined)
    throw new RangeError('learning: difficulties must be {min, max} (and replaces difficulty)')
  const min = int(difficulties.min, 1, 5, 'difficulties.min') as Difficulty
  const max = int(difficulties.max, min, 5, 'difficulties.max') as Difficulty
  return { min, max }
}
