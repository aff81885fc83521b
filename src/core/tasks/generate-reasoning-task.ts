// A reasoning task from (family, difficulty, seed): the same three give the same task on every peer.
import { answerInstruction } from './answer-tag.ts'
import { reasoningFamily } from './reasoning-families.ts'
import { SeededRandom } from './seeded-random.ts'
import type { Difficulty, ReasoningTask } from './task.ts'
import { taskId } from './task-id.ts'

export function generateReasoningTask(
  familyName: string,
  difficulty: Difficulty,
  seed: number,
): ReasoningTask {
  return generateWorkedTask(familyName, difficulty, seed).task
}

/** The task and its family's worked solution, if the family writes one (the task JSON never carries it). */
export function generateWorkedTask(
  familyName: string,
  difficulty: Difficulty,
  seed: number,
): { task: ReasoningTask; working?: string } {
  const family = reasoningFamily(familyName)
  if (!family) throw new RangeError(`unknown reasoning task family "${familyName}"`)
  const random = new SeededRandom(`tabswarm/reasoning/${family.name}/${difficulty}/${seed}`)
  const { question, answer, working } = family.generate(random, difficulty)
  const content = {
    kind: 'reasoning' as const,
    family: family.name,
    difficulty,
    prompt: `${question}\n${answerInstruction(family.answerFormat)}`,
    answer,
  }
  const task = { id: taskId(content), seed, ...content }
  return working === undefined ? { task } : { task, working }
}
