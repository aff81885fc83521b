// The shape every reasoning task family has: a generator and the canonical form its verifier compares.
import type { SeededRandom } from './seeded-random.ts'
import type { Difficulty } from './task.ts'

export interface GeneratedQuestion {
  question: string
  answer: string
  /**
   * A worked solution that ends just before the answer tag: what supervised training shows a small
   * model when the answer is out of its reach in one step but each line of the working is not.
   */
  working?: string
}

export interface ReasoningFamily {
  name: string
  /** how the answer is to be written, for the prompt: "an integer", "a fraction p/q in lowest terms" */
  answerFormat: string
  generate(random: SeededRandom, difficulty: Difficulty): GeneratedQuestion
  /**
   * The one form that every acceptable way of writing an answer maps to — or undefined for text that is
   * not an answer of this family. Lenient about writing (spaces, case, a prefix), exact about the value.
   */
  canonical(answer: string): string | undefined
}
