// A task as it crosses the network: the (kind, family, difficulty, seed) that regenerates it. A receiver
// never trusts a task's text from gossip; it regenerates the task and checks the id the sender claimed.
import * as z from 'zod'
import { checked, intIn, stringOf } from './schema.ts'
import { codeTemplate } from '../tasks/code-templates.ts'
import { generateCodeTask } from '../tasks/generate-code-task.ts'
import { generateReasoningTask } from '../tasks/generate-reasoning-task.ts'
import { reasoningFamily } from '../tasks/reasoning-families.ts'
import { DIFFICULTIES, type Difficulty, type Task } from '../tasks/task.ts'

export interface TaskRef {
  kind: Task['kind']
  family: string
  difficulty: Difficulty
  seed: number
}

/** Largest seed accepted: seeds are drawn as u32 (round-tasks.ts). */
export const MAX_TASK_SEED = 0xffff_ffff

/** Regenerates a task; throws a RangeError for an unknown family or an invalid difficulty or seed. */
export function taskFromRef(ref: TaskRef): Task {
  if (!Number.isSafeInteger(ref.seed) || ref.seed < 0 || ref.seed > MAX_TASK_SEED)
    throw new RangeError(`task seed ${ref.seed} is not a u32`)
  return ref.kind === 'code'
    ? generateCodeTask(ref.family, ref.difficulty, ref.seed)
    : generateReasoningTask(ref.family, ref.difficulty, ref.seed)
}

/** Whether this peer can generate and verify tasks of a family (a reasoning family or a code template). */
export const taskFamilyExists = (source: { kind: TaskRef['kind']; family: string }): boolean =>
  source.kind === 'code'
    ? codeTemplate(source.family) !== undefined
    : reasoningFamily(source.family) !== undefined

export const refOfTask = (task: Task): TaskRef => ({
  kind: task.kind,
  family: task.family,
  difficulty: task.difficulty,
  seed: task.seed,
})

/** What a task ref must be (not that the family exists: taskFromRef does that). */
export const TASK_REF_SCHEMA = z.object(
  {
    kind: z.enum(['reasoning', 'code'], { error: 'task kind must be reasoning or code' }),
    family: stringOf(1, 64, 'task family must be 1–64 characters'),
    difficulty: z.literal(DIFFICULTIES, { error: 'task difficulty must be 1–5' }),
    seed: intIn(0, MAX_TASK_SEED, 'task seed must be a u32'),
  },
  { error: 'task is not an object' },
)

/** Checks an untrusted value's shape (not that the family exists: taskFromRef does that). */
export const parseTaskRef = (value: unknown): TaskRef | string => checked(TASK_REF_SCHEMA, value)
