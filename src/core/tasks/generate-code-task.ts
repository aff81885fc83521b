// A code task from (template, difficulty, seed), deterministic like the reasoning tasks. The hidden
// tests are calls of the entry point whose JSON text must match the value the template computed.
import { codeTemplate } from './code-templates.ts'
import type { CodeProblem, CodeTemplate, Json } from './code-template.ts'
import { SeededRandom } from './seeded-random.ts'
import type { CodeTask, Difficulty } from './task.ts'
import { taskId } from './task-id.ts'

export const CODE_ANSWER_INSTRUCTION =
  'Answer with one JavaScript code block (```javascript … ```) that defines the function. ' +
  'It runs in a plain JavaScript engine: no DOM, no network, no modules, no Date.'

function templateNamed(name: string): CodeTemplate {
  const template = codeTemplate(name)
  if (!template) throw new RangeError(`unknown code task template "${name}"`)
  return template
}

function problemOf(template: CodeTemplate, difficulty: Difficulty, seed: number): CodeProblem {
  return template.generate(
    new SeededRandom(`tabswarm/code/${template.name}/${difficulty}/${seed}`),
    difficulty,
  )
}

/** The problem behind a code task, with its reference solution (which the task itself does not carry). */
export function codeProblem(templateName: string, difficulty: Difficulty, seed: number): CodeProblem {
  return problemOf(templateNamed(templateName), difficulty, seed)
}

export function generateCodeTask(templateName: string, difficulty: Difficulty, seed: number): CodeTask {
  const template = templateNamed(templateName)
  const { statement, calls } = problemOf(template, difficulty, seed)
  const entryPoint = template.signature.slice(0, template.signature.indexOf('('))
  const call = (args: Json[]) => `${entryPoint}(${args.map((a) => JSON.stringify(a)).join(', ')})`
  const example = calls[0]!
  const content = {
    kind: 'code' as const,
    family: template.name,
    difficulty,
    prompt:
      `Write a JavaScript function \`${template.signature}\` ${statement}\n` +
      `For example, ${call(example.args)} returns ${JSON.stringify(example.expected)}.\n${CODE_ANSWER_INSTRUCTION}`,
    entryPoint,
    tests: calls.map(({ args, expected }) => ({
      expression: call(args),
      expected: JSON.stringify(expected),
    })),
  }
  return { id: taskId(content), seed, ...content }
}
