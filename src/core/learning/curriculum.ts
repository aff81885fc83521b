// The sender's curriculum: which cells (family × difficulty) fill the free slots of its draw. A GRPO
// group teaches only when its G rewards differ, which for a success rate p happens with probability
// 1 − p^G − (1 − p)^G: highest at p = ½, near zero on cells the model always or never solves. So the
// curriculum keeps a recent success rate per cell from the peer's own groups (counts that decay, so it
// follows the model as it learns) and fills the free slots with the cells most likely to give a signal.
// Unseen cells start at p = ½ (the optimistic prior: the best a cell can be), so each is tried before
// the curriculum settles. Pure: the state is plain JSON saved with the learning history, and the choice
// is deterministic from (state, swarm, round, peer), so a bench can replay it.
import { CODEZERO_REWARD } from '../tasks/reward.ts'
import { SeededRandom } from '../tasks/seeded-random.ts'
import { cellKey, type Cell } from './round-tasks.ts'

/** Per cell key, decayed counts of the peer's own completions there and how many succeeded. */
export interface CurriculumState {
  cells: Record<string, { completions: number; successes: number }>
}

export const EMPTY_CURRICULUM: CurriculumState = { cells: {} }

/**
 * Weight the old counts keep at each new group of a cell: about the last 5 groups count, so a cell the
 * model has learned stops looking hard within a few rounds.
 */
export const CURRICULUM_DECAY = 0.8

/**
 * A completion counts as a success when its reward is at least a correct answer's worst (correct, but
 * ran to the token limit): with CodeZero's shape an incorrect one gets at most the length bonus.
 */
export const SUCCESS_REWARD = CODEZERO_REWARD.correct + CODEZERO_REWARD.lengthPenalty

/** How many of a group's completions are successes (SUCCESS_REWARD). */
export const successesOf = (rewards: readonly number[]): number =>
  rewards.filter((r) => r >= SUCCESS_REWARD).length

/** The success rate of a cell: one pseudo-success and one pseudo-failure, so unseen cells are at ½. */
export function successRate(state: CurriculumState, cell: Cell): number {
  const c = state.cells[cellKey(cell)]
  return ((c?.successes ?? 0) + 1) / ((c?.completions ?? 0) + 2)
}

/** Chance that a group of `groupSize` completions at success rate `p` has rewards that differ. */
export const signalChance = (p: number, groupSize: number): number =>
  1 - p ** groupSize - (1 - p) ** groupSize

/** The state after the peer's own groups of a round (each its cell's key and its rewards). */
export function updateCurriculum(
  state: CurriculumState,
  groups: readonly { cell: string; rewards: readonly number[] }[],
): CurriculumState {
  const cells = { ...state.cells }
  for (const { cell: key, rewards } of groups) {
    const old = cells[key] ?? { completions: 0, successes: 0 }
    cells[key] = {
      completions: old.completions * CURRICULUM_DECAY + rewards.length,
      successes: old.successes * CURRICULUM_DECAY + successesOf(rewards),
    }
  }
  return { cells }
}

export interface CurriculumChoice {
  swarmId: string
  round: number
  peerId: string
  /** the swarm's cells (learningCells) */
  cells: readonly Cell[]
  /** free slots to fill */
  count: number
  groupSize: number
}

/**
 * The cells for the free slots: of the swarm's cells, those whose signal chance is at least half the
 * best one's (SIGNAL_SHORTLIST), in turn from a place on the shortlist seeded by swarm, round and peer,
 * so the groups spread over the cells that teach — within a round and across rounds, even when a
 * round has fewer free slots than the shortlist has cells — rather than piling on one estimate, yet
 * never go to a cell that would teach far less; equal chances (unseen cells) in a seeded order.
 */
export function chooseCells(state: CurriculumState, choice: CurriculumChoice): Cell[] {
  const random = new SeededRandom(`tabswarm/curriculum/${choice.swarmId}/${choice.round}/${choice.peerId}`)
  const ranked = choice.cells
    .map((cell) => ({
      cell,
      chance: signalChance(successRate(state, cell), choice.groupSize),
      tie: random.nextUint32(),
    }))
    .sort((a, b) => b.chance - a.chance || a.tie - b.tie)
  const shortlist = ranked.filter((r) => r.chance >= SIGNAL_SHORTLIST * ranked[0]!.chance)
  const start = random.nextUint32() % shortlist.length
  return Array.from({ length: choice.count }, (_, i) => shortlist[(start + i) % shortlist.length]!.cell)
}

/** A cell is worth a free slot when its signal chance is at least this share of the best cell's. */
export const SIGNAL_SHORTLIST = 0.5

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0

/** A saved state, or the empty one when it is absent (a history saved before the curriculum) or damaged. */
export function decodeCurriculum(value: unknown): CurriculumState {
  if (!isObject(value) || !isObject(value.cells)) return EMPTY_CURRICULUM
  const cells: CurriculumState['cells'] = {}
  for (const [key, c] of Object.entries(value.cells))
    if (isObject(c) && isCount(c.completions) && isCount(c.successes) && c.successes <= c.completions)
      cells[key] = { completions: c.completions, successes: c.successes }
  return { cells }
}
