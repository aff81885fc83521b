// The code task templates, by name.
import type { CodeTemplate } from './code-template.ts'
import { countCharacters } from './code-templates/count-characters.ts'
import { digitSum } from './code-templates/digit-sum.ts'
import { rotateList } from './code-templates/rotate-list.ts'
import { runLength } from './code-templates/run-length.ts'
import { sumOfMultiples } from './code-templates/sum-of-multiples.ts'

export const CODE_TEMPLATES: readonly CodeTemplate[] = [
  sumOfMultiples,
  countCharacters,
  rotateList,
  digitSum,
  runLength,
]

export function codeTemplate(name: string): CodeTemplate | undefined {
  return CODE_TEMPLATES.find((template) => template.name === name)
}
