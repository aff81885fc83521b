// Greedy pass@1 of a model on the held-out reasoning tasks, per family at difficulty 1, 2 and both
// together, each next to the best constant answer and the window. The float64 forward decodes:
// the same verdicts wherever it runs. Used by `npm run model:eval` and by training's periodic checks.
import type { ModelConfig } from '../config.ts'
import { GreedyDecoder } from '../f64/greedy-decoder.ts'
import type { ParamViews } from '../f64/forward-tape.ts'
import type { Tokenizer } from '../tokenizer/tokenizer.ts'
import { heldOutCell } from '../../../core/tasks/held-out-set.ts'
import {
  cellInterval,
  stratifiedInterval,
  type CellScore,
  type PassInterval,
} from '../../../core/tasks/pass-interval.ts'
import { REASONING_FAMILIES } from '../../../core/tasks/reasoning-families.ts'
import type { Difficulty, ReasoningTask } from '../../../core/tasks/task.ts'
import { framePrompt, heldOutTasks, type HeldOutRule } from './sft-data.ts'
import {
  bestConstantAnswer,
  combineScores,
  inTargetWindow,
  scoreCompletions,
  type SolveScore,
} from './solver-quality.ts'

/** Room for the longest completions: modular arithmetic's working and answer take up to 45 tokens. */
export const EVAL_MAX_NEW_TOKENS = 64
const DIFFICULTIES: readonly Difficulty[] = [1, 2]

export interface HeldOutRow extends SolveScore {
  readonly family: string
  /** '1', '2' or '1-2' (both, task-weighted). */
  readonly difficulty: string
  /** Share the best constant answer gets right (for '1-2': per difficulty, task-weighted). */
  readonly constantRate: number
  readonly inWindow: boolean
}

export interface HeldOutModel {
  readonly config: ModelConfig
  readonly views: ParamViews
  readonly tokenizer: Tokenizer
  readonly stopToken: number
}

/** The model's greedy completion of a task, as text (the stop token dropped). */
export function greedyCompleter(model: HeldOutModel): (task: ReasoningTask) => string {
  const decoder = new GreedyDecoder(model.config, model.views)
  return (task) => {
    const prompt = model.tokenizer.encode(framePrompt(task))
    // A prompt longer than the context gets no answer (scored wrong): a model trained on other families
    // may tokenise this one's text into too many pieces.
    if (prompt.length > model.config.maxSeqLen) return ''
    const ids = decoder.generate(prompt, {
      maxNewTokens: EVAL_MAX_NEW_TOKENS,
      stopToken: model.stopToken,
    })
    return model.tokenizer.decode(ids.filter((id) => id !== model.stopToken))
  }
}

/**
 * Rows in family order, each family's '1', '2', then '1-2'; `count` validation tasks per family and
 * difficulty (`heldOut`: the recipe's rule, which keeps the reserved test prompts out of them).
 */
export function evaluateHeldOut(model: HeldOutModel, count: number, heldOut?: HeldOutRule): HeldOutRow[] {
  const complete = greedyCompleter(model)
  const row = (family: string, difficulty: string, score: SolveScore, constantRate: number) => ({
    family,
    difficulty,
    ...score,
    constantRate,
    inWindow: inTargetWindow(score.pass, constantRate),
  })
  return REASONING_FAMILIES.flatMap(({ name }) => {
    const parts = DIFFICULTIES.map((difficulty) => {
      const tasks = heldOutTasks(name, difficulty, heldOut).slice(0, count)
      return { score: scoreCompletions(tasks, tasks.map(complete)), constant: bestConstantAnswer(tasks) }
    })
    const both = combineScores(parts)
    return [
      ...parts.map((p, i) => row(name, String(DIFFICULTIES[i]), p.score, p.constant.rate)),
      row(name, '1-2', both.score, both.constantRate),
    ]
  })
}

/** The combined ('1-2') rows: the ones the window is judged on. */
export const combinedRows = (rows: readonly HeldOutRow[]) => rows.filter((r) => r.difficulty === '1-2')

export interface ReservedRow extends PassInterval {
  readonly family: string
  readonly difficulty: Difficulty
  /** The cell holds every reserved prompt its scan found, fewer than asked (tasks/held-out-set.ts). */
  readonly exhausted: boolean
}

/**
 * Which of a cell's prompts one scorer takes: those at index ≡ `index` (mod `of`). Peers that started
 * from the same weights and trained alike split one set this way, so a full set is scored once per arm
 * rather than once per peer, and the pooled result is the arm's mean over its peers.
 */
export interface PromptShare {
  readonly index: number
  readonly of: number
}

/** A cell's greedy results on its share of the reserved prompts. */
export interface ReservedCellScore extends CellScore {
  readonly family: string
  readonly difficulty: Difficulty
  readonly exhausted: boolean
}

/** Which reserved prompts to score: a peer's share of them, and the families (default: every one). */
export interface ReservedScope {
  readonly share?: PromptShare
  /** the families a swarm draws: its held-out mix is those families, not every one the model knows */
  readonly families?: readonly string[]
}

/** Greedy results per family × difficulty cell (family-major) on `share` of each cell's reserved prompts. */
export function scoreReservedCells(
  model: HeldOutModel,
  difficulties: readonly Difficulty[],
  perCell: number,
  { share = { index: 0, of: 1 }, families = REASONING_FAMILIES.map((f) => f.name) }: ReservedScope = {},
): ReservedCellScore[] {
  if (!Number.isInteger(share.of) || share.of < 1 || share.index < 0 || share.index >= share.of)
    throw new RangeError(`a prompt share is index 0…of−1 of of ≥ 1 (got ${share.index} of ${share.of})`)
  const complete = greedyCompleter(model)
  return families.flatMap((name) =>
    difficulties.map((difficulty) => {
      const cell = heldOutCell(name, difficulty, perCell)
      const tasks = cell.tasks.filter((_, i) => i % share.of === share.index)
      return {
        family: cell.family,
        difficulty: cell.difficulty,
        exhausted: cell.exhausted,
        // a small cell can leave a share empty: it adds nothing to the pooled cell
        ...(tasks.length === 0
          ? { tasks: 0, pass: 0, formatted: 0 }
          : scoreCompletions(tasks, tasks.map(complete))),
      }
    }),
  )
}

/**
 * Greedy pass@1 on the reserved prompts (tasks/held-out-set.ts): up to `perCell` distinct prompts per
 * family and difficulty, each cell with its Wilson interval and format failures, and the uniform mix
 * over the cells with its stratified interval.
 */
export function evaluateReserved(
  model: HeldOutModel,
  difficulties: readonly Difficulty[],
  perCell: number,
): { rows: ReservedRow[]; mix: PassInterval } {
  const scored = scoreReservedCells(model, difficulties, perCell)
  return {
    rows: scored.map((cell) => ({
      family: cell.family,
      difficulty: cell.difficulty,
      exhausted: cell.exhausted,
      ...cellInterval(cell),
    })),
    mix: stratifiedInterval(scored),
  }
}
