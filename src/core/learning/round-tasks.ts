// The data manager's draw: which tasks a peer solves in a round. A draw has `tasksPerRound` slots, each
// a cell (kind, family, difficulty) and a seed. The first slots explore: their cells follow a public
// rotation over the swarm's cells, so every cell keeps its share of any 20-round draw whatever the peer
// prefers. The other slots are the peer's choice of cell (its curriculum, src/core/learning/curriculum.ts), but
// never of seed: every slot's seed comes from (swarm, round, peer, slot, cell). So anyone who reads a
// peer's signed groups can recompute its draw and see that it neither took another peer's tasks nor
// picked easy seeds, and the held-out prompts (isReservedPrompt) are never drawn.
import { isReservedPrompt } from '../tasks/reserved-prompts.ts'
import { SeededRandom } from '../tasks/seeded-random.ts'
import type { Difficulty } from '../tasks/task.ts'
import { taskFromRef, type TaskRef } from '../protocol/task-ref.ts'

/** A family a swarm draws from, and whether its tasks are reasoning or code tasks. */
export interface TaskSource {
  kind: TaskRef['kind']
  family: string
}

/** A family at one difficulty: what a slot of the draw is filled from. */
export interface Cell extends TaskSource {
  difficulty: Difficulty
}

/** A cell as one string ("reasoning/arithmetic/2"): state keys, logs and the Train view. */
export const cellKey = (cell: Cell): string => `${cell.kind}/${cell.family}/${cell.difficulty}`

export interface RoundDraw {
  swarmId: string
  round: number
  peerId: string
  /** slots in the draw: the GRPO groups the peer generates */
  tasksPerRound: number
  /** the swarm's cells (sources × difficulties, learningCells), in config order */
  cells: readonly Cell[]
}

/** The window over which every cell keeps its share of a peer's draw (issue 19 §2). */
export const SHARE_WINDOW_ROUNDS = 20

/**
 * Exploration slots per round, or undefined when no number of them can keep every cell's share: each
 * of `cells` cells must get at least 1/(4·cells) of any SHARE_WINDOW_ROUNDS-round draw, i.e.
 * ⌈20·T / (4·cells)⌉ = ⌈5T / cells⌉ of its 20·T tasks. The rotation hands out cells in a fixed cyclic
 * order, e per round, so 20 consecutive rounds take 20·e consecutive places of the cycle and every cell
 * at least ⌊20·e / cells⌋ of them: the least e with ⌊20·e / cells⌋ ≥ ⌈5T / cells⌉. (Integer arithmetic
 * throughout: the bound is exact.)
 */
export function explorationSlots(tasksPerRound: number, cells: number): number | undefined {
  const need = Math.floor((5 * tasksPerRound + cells - 1) / cells)
  for (let e = 1; e <= tasksPerRound; e++) if (Math.floor((SHARE_WINDOW_ROUNDS * e) / cells) >= need) return e
  return undefined
}

function exploration(draw: RoundDraw): number {
  if (draw.cells.length === 0) throw new RangeError('a swarm needs at least one task family')
  if (!Number.isSafeInteger(draw.tasksPerRound) || draw.tasksPerRound < 1)
    throw new RangeError('tasks per round must be ≥ 1')
  const e = explorationSlots(draw.tasksPerRound, draw.cells.length)
  if (e === undefined)
    throw new RangeError(
      `${draw.cells.length} cells cannot each keep their share of ${draw.tasksPerRound} tasks per round`,
    )
  return e
}

/** Where the peer's rotation starts, seeded per peer: a round's exploration spreads over the swarm's cells. */
const rotationStart = (draw: RoundDraw) =>
  new SeededRandom(`tabswarm/explore/${draw.swarmId}/${draw.peerId}`).int(0, draw.cells.length - 1)

/** The cell of exploration slot `slot` (< explorationSlots) in the draw's round. */
export function explorationCell(draw: RoundDraw, slot: number): Cell {
  const n = draw.cells.length
  const place = (rotationStart(draw) + (draw.round % n) * exploration(draw) + slot) % n
  return draw.cells[place]!
}

/** A draw of seeds that never ends on a reserved prompt: this many in a row is not chance but a bug. */
const MAX_RESERVED_SKIPS = 256

/** The candidate seeds of slot `slot` filled from `cell`, in order: the slot's seed is the first unreserved. */
function* candidateSeeds(draw: RoundDraw, slot: number, cell: Cell): Generator<number> {
  const random = new SeededRandom(
    `tabswarm/round/${draw.swarmId}/${draw.round}/${draw.peerId}/${slot}/${cellKey(cell)}`,
  )
  for (let i = 0; i < MAX_RESERVED_SKIPS; i++) yield random.nextUint32()
}

const isReservedSeed = (cell: Cell, seed: number) => isReservedPrompt(taskFromRef({ ...cell, seed }).prompt)

/**
 * The seed of slot `slot` filled from `cell`: the first u32 of the slot's stream whose task prompt is
 * not reserved for held-out evaluation (1 in 8 is; skipping is deterministic, so a receiver skips the same).
 */
export function slotSeed(draw: RoundDraw, slot: number, cell: Cell): number {
  for (const seed of candidateSeeds(draw, slot, cell)) if (!isReservedSeed(cell, seed)) return seed
  throw new RangeError(`${cellKey(cell)}: every drawn prompt is reserved for evaluation`)
}

/**
 * Whether `seed` is slot `slot`'s seed for `cell`, generating as few tasks as it can: a seed that is
 * not among the slot's candidates needs none, one that is needs its own and those before it.
 */
function isSlotSeed(draw: RoundDraw, slot: number, cell: Cell, seed: number): boolean {
  const before: number[] = []
  for (const candidate of candidateSeeds(draw, slot, cell)) {
    if (candidate === seed) return !isReservedSeed(cell, seed) && before.every((s) => isReservedSeed(cell, s))
    before.push(candidate)
  }
  return false
}

/** How many of the draw's slots are the peer's choice (the rest explore). */
export const freeSlots = (draw: RoundDraw): number => draw.tasksPerRound - exploration(draw)

/** The exploration slots' cells, then `chosen` (one cell of the swarm's per free slot), each with its seed. */
export function roundTasks(draw: RoundDraw, chosen: readonly Cell[]): TaskRef[] {
  const e = exploration(draw)
  if (chosen.length !== draw.tasksPerRound - e)
    throw new RangeError(`the draw has ${draw.tasksPerRound - e} free slots, not ${chosen.length}`)
  if (!chosen.every((c) => isDrawable(draw.cells, c)))
    throw new RangeError("a chosen cell is not one of the swarm's")
  const cells = [...Array.from({ length: e }, (_, slot) => explorationCell(draw, slot)), ...chosen]
  return cells.map((cell, slot) => ({ ...cell, seed: slotSeed(draw, slot, cell) }))
}

/** Whether `cells` holds the kind, family and difficulty of `ref`: the swarm draws such tasks. */
export const isDrawable = (cells: readonly Cell[], ref: Omit<TaskRef, 'seed'>): boolean =>
  cells.some((c) => c.kind === ref.kind && c.family === ref.family && c.difficulty === ref.difficulty)

/**
 * The slot of the sender's draw that `ref` fills, or undefined when it fills none: a group counts only
 * for a task its sender drew, so no peer can answer (or pre-empt) another's tasks. Recomputed from
 * public data alone — the swarm, the round, the sender and the cell the group declares in its signed
 * message: an exploration slot must hold its rotation's cell, a free slot any of the swarm's cells,
 * and in either the seed must be the slot's seed for that cell.
 */
export function slotInSendersDraw(draw: RoundDraw, ref: TaskRef): number | undefined {
  if (!isDrawable(draw.cells, ref)) return undefined
  const e = exploration(draw)
  const key = cellKey(ref)
  for (let slot = 0; slot < draw.tasksPerRound; slot++) {
    if (slot < e && cellKey(explorationCell(draw, slot)) !== key) continue
    if (isSlotSeed(draw, slot, ref, ref.seed)) return slot
  }
  return undefined
}
