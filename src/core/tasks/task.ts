// What a task is, as peers generate, gossip and score it. Plain JSON: a task crosses the network with
// its rollouts, and the receiver regenerates it from (family, difficulty, seed) to check it.
import type { SandboxTest } from './sandbox-job.ts'

export const DIFFICULTIES = [1, 2, 3, 4, 5] as const
export type Difficulty = (typeof DIFFICULTIES)[number]

interface TaskBase {
  /** hex SHA-256 of the task's canonical content (task-id.ts) */
  id: string
  family: string
  difficulty: Difficulty
  seed: number
  /** what the model is shown, including how to format its answer */
  prompt: string
}

/** A question with one exact answer, checked by its family's verifier (verify-reasoning.ts). */
export interface ReasoningTask extends TaskBase {
  kind: 'reasoning'
  /** the reference answer, as the family writes it */
  answer: string
}

/** An MBPP-style problem: the model writes a JavaScript function that hidden tests call in the sandbox. */
export interface CodeTask extends TaskBase {
  kind: 'code'
  /** the function the prompt asks for */
  entryPoint: string
  tests: SandboxTest[]
}

export type Task = ReasoningTask | CodeTask
