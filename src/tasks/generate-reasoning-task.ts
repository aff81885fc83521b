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
  const family = reasoningFamily(familyName)
  if (!family) throw new RangeError(`unknown reasoning task family "${familyName}"`)
  const random = new SeededRandom(`tabswarm/reasoning/${family.name}/${difficulty}/${seed}`)
  const { question, answer } = family.generate(random, difficulty)
  const content = {
    kind: 'reasoning' as const,
    family: family.name,
    difficulty,
    prompt: `${question}\n${answerInstruction(family.answerFormat)}`,
    answer,
  }
  return { id: taskId(content), seed, ...content }
}
