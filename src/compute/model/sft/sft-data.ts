// The supervised data of tabswarm's own model: reasoning tasks framed as the model sees them, with the
// reference answer as the target. Training seeds count up from 0; the quality window's evaluation uses a
// disjoint seed range, and a recipe with `heldOut` also skips every reserved prompt (held out by text).
import { generateReasoningTask, generateWorkedTask } from '../../../core/tasks/generate-reasoning-task.ts'
import { isReservedPrompt } from '../../../core/tasks/reserved-prompts.ts'
import type { Difficulty, ReasoningTask } from '../../../core/tasks/task.ts'
import type { SftSequence } from '../f64/sft-step.ts'
import type { Tokenizer } from '../tokenizer/tokenizer.ts'

/** How a task prompt is framed for the model (tabswarm.json's promptTemplate). */
export const PROMPT_TEMPLATE = '{prompt}\n'
export const END_OF_TEXT = '<|endoftext|>'

/** Held-out evaluation seeds: HELD_OUT_SEED_START … + HELD_OUT_COUNT − 1 per family and difficulty. */
export const HELD_OUT_SEED_START = 1_000_000
export const HELD_OUT_COUNT = 500

/** One (family, difficulty) and how many training examples it gets per round of the mix. */
export interface MixEntry {
  readonly family: string
  readonly difficulty: Difficulty
  readonly weight: number
}

export function framePrompt(task: ReasoningTask): string {
  return PROMPT_TEMPLATE.replace('{prompt}', task.prompt)
}

/** A training example: the task and, where its family writes one, the worked solution to imitate. */
export interface WorkedTask {
  readonly task: ReasoningTask
  readonly working?: string
}

/**
 * Which families' worked solutions a recipe's targets carry (a recipe field, so in its genesis hash).
 * Without one, modular arithmetic's only: the first family to write a working, and all that the
 * shipped and micro models trained on, so their chains replay unchanged now that every family writes
 * one. 'all-families-v1': every family's working as it writes it (docs/solver-model.md).
 */
export type Workings = 'all-families-v1' | 'either-v1'

/**
 * 'either-v1': every family's working on every other example of each mix entry (its k-th use, k even),
 * the bare answer on the rest. A model trained so knows two ways to answer and not which one works,
 * which reinforcement learning can find from its own rewards (docs/solver-model.md).
 */
function withWorkings(example: WorkedTask, workings: Workings | undefined, k: number): WorkedTask {
  if (workings === 'all-families-v1' || (workings === 'either-v1' && k % 2 === 0)) return example
  if (workings === undefined && example.task.family === 'modular-arithmetic') return example
  return { task: example.task }
}

/** What the model learns to write after the prompt: the working (if any), then the tagged answer. */
export function answerTarget({ task, working }: WorkedTask): string {
  return `${working === undefined ? '' : `${working} `}<answer>${task.answer}</answer>${END_OF_TEXT}`
}

/** The prompt's tokens followed by the target's; the loss reads the target only. */
export function encodeExample(tokenizer: Tokenizer, example: WorkedTask): SftSequence {
  const prompt = tokenizer.encode(framePrompt(example.task))
  const target = tokenizer.encode(answerTarget(example))
  return { ids: Int32Array.from([...prompt, ...target]), lossFrom: prompt.length }
}

/** The mix expanded to one slot per example of a round: entry e appears weight(e) times, in order. */
export function mixSlots(mix: readonly MixEntry[]): MixEntry[] {
  const slots = mix.flatMap((entry) => {
    if (!Number.isInteger(entry.weight) || entry.weight < 1)
      throw new RangeError(
        `data mix: weight of ${entry.family}/${entry.difficulty} must be a positive integer`,
      )
    return Array.from({ length: entry.weight }, () => entry)
  })
  if (slots.length === 0) throw new RangeError('data mix: no entries')
  return slots
}

/**
 * How a recipe keeps its data clear of the held-out prompts. 'reserved-prompts-v1': no example has a
 * reserved prompt (tasks/reserved-prompts.ts), so held-out evaluation (tasks/held-out-set.ts) is on
 * prompts the model never saw. A recipe without it (the shipped one) trains on every seed in turn.
 */
export type HeldOutRule = 'reserved-prompts-v1'

/** Per family/difficulty, the seeds whose prompt is not reserved, in order, grown as far as asked. */
const unreservedSeeds = new Map<string, number[]>()

/** The k-th seed (from 0) of a family and difficulty whose prompt is not reserved. */
export function unreservedSeed(family: string, difficulty: Difficulty, k: number): number {
  const key = `${family}/${difficulty}`
  const seeds = unreservedSeeds.get(key) ?? []
  unreservedSeeds.set(key, seeds)
  for (let seed = (seeds.at(-1) ?? -1) + 1; seeds.length <= k; seed++)
    if (!isReservedPrompt(generateReasoningTask(family, difficulty, seed).prompt)) seeds.push(seed)
  return seeds[k]!
}

/** The recipe's rules for its examples (its hyperparameters carry them; absent: the shipped recipe's). */
export interface ExampleRules {
  readonly heldOut?: HeldOutRule
  readonly workings?: Workings
}

/**
 * Training example n: round floor(n / slots) of the mix, slot n mod slots. A slot's k-th use takes
 * the entry's k·weight + (its index among its entry's slots)-th seed, so every entry walks its seeds
 * 0, 1, 2, … — with `heldOut`, only those whose prompt is not reserved.
 */
export function trainingExample(
  slots: readonly MixEntry[],
  n: number,
  { heldOut, workings }: ExampleRules = {},
): WorkedTask {
  const slot = n % slots.length
  const entry = slots[slot]!
  const round = Math.floor(n / slots.length)
  const within = slots.slice(0, slot).filter((e) => e === entry).length
  const k = round * entry.weight + within
  const seed = heldOut === undefined ? k : unreservedSeed(entry.family, entry.difficulty, k)
  if (seed >= HELD_OUT_SEED_START)
    throw new RangeError(`training seed ${seed} would reach the held-out seeds`)
  return withWorkings(generateWorkedTask(entry.family, entry.difficulty, seed), workings, k)
}

/**
 * The validation tasks of a family and difficulty: seeds HELD_OUT_SEED_START onward, which training
 * never reaches. With a recipe's `heldOut` rule the reserved prompts among them are left out, so choosing
 * a stop step on these never looks at the test set (tasks/held-out-set.ts); small prompt spaces still
 * repeat training prompts here, which a validation range may.
 */
export function heldOutTasks(family: string, difficulty: Difficulty, heldOut?: HeldOutRule): ReasoningTask[] {
  const tasks = Array.from({ length: HELD_OUT_COUNT }, (_, i) =>
    generateReasoningTask(family, difficulty, HELD_OUT_SEED_START + i),
  )
  return heldOut === undefined ? tasks : tasks.filter((t) => !isReservedPrompt(t.prompt))
}
