// The shape of an MBPP-style problem template: seeded parameters give a problem statement, calls with
// their expected values (computed here, on the host, never by candidate code) and a reference solution.
import type { SeededRandom } from './seeded-random.ts'
import type { Difficulty } from './task.ts'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

export interface CodeCall {
  args: Json[]
  expected: Json
}

export interface CodeProblem {
  /** completes "Write a JavaScript function `name(…)` that …" */
  statement: string
  /** the first is shown in the prompt as an example; all are hidden tests */
  calls: CodeCall[]
  /** JavaScript source of a correct solution: what tests run to show the hidden tests are passable */
  solution: string
}

export interface CodeTemplate {
  name: string
  /** the function's name and parameters, e.g. `sumOfMultiples(n)` */
  signature: string
  generate(random: SeededRandom, difficulty: Difficulty): CodeProblem
}

/** Hidden tests per difficulty: more at higher levels, so a lucky special case passes less often. */
export const callCount = (difficulty: Difficulty) => 3 + difficulty
