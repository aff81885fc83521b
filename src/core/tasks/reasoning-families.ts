// The reasoning task families, by name.
import { arithmetic } from './families/arithmetic.ts'
import { baseConversion } from './families/base-conversion.ts'
import { fractionSimplification } from './families/fraction-simplification.ts'
import { listSorting } from './families/list-sorting.ts'
import { modularArithmetic } from './families/modular-arithmetic.ts'
import { propositionalLogic } from './families/propositional-logic.ts'
import type { ReasoningFamily } from './reasoning-family.ts'

export const REASONING_FAMILIES: readonly ReasoningFamily[] = [
  arithmetic,
  baseConversion,
  fractionSimplification,
  propositionalLogic,
  modularArithmetic,
  listSorting,
]

export function reasoningFamily(name: string): ReasoningFamily | undefined {
  return REASONING_FAMILIES.find((family) => family.name === name)
}
