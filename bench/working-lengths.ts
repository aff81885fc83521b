// Token lengths of the worked solutions (npm run bench:working-lengths): per family and difficulty
// 1–3, what a completion must sample to reach its answer (the working and the tagged answer; the end
// of text may fall past the budget, the verifier reads the last <answer>) in tokens of the shipped
// tokenizer and of the one NEXT_SOLVER_RECIPE trains, against the swarm's 48 new tokens and the 64
// the Solve view samples, and the longest prompt + SFT target against the 128-token context. Also
// checks that every working is ASCII and survives an encode/decode round trip.
import { readFileSync } from 'node:fs'
import { REASONING_FAMILIES } from '../src/core/tasks/reasoning-families.ts'
import { generateWorkedTask } from '../src/core/tasks/generate-reasoning-task.ts'
import type { Difficulty } from '../src/core/tasks/task.ts'
import { parseTokenizerJson } from '../src/compute/model/tokenizer/bpe-tokenizer.ts'
import type { Tokenizer } from '../src/compute/model/tokenizer/tokenizer.ts'
import { answerTarget, framePrompt } from '../src/compute/model/sft/sft-data.ts'
import { NEXT_SOLVER_RECIPE } from '../src/compute/model/sft/solver-recipe.ts'
import { trainSolverTokenizer } from '../src/compute/model/sft/solver-training.ts'
import { percentile, writeResults } from './stats.ts'

const SEEDS = 2000
const BUDGETS = [48, 64]
const CONTEXT = NEXT_SOLVER_RECIPE.config.maxSeqLen

const tokenizers: Record<string, Tokenizer> = {
  shipped: parseTokenizerJson(
    JSON.parse(
      readFileSync(new URL('../public/models/tabswarm-tiny/tokenizer.json', import.meta.url), 'utf8'),
    ),
  ),
  next: parseTokenizerJson(JSON.parse(trainSolverTokenizer(NEXT_SOLVER_RECIPE))),
}

interface Lengths {
  /** tokens to the answer's closing tag: the SFT target less its end of text */
  toAnswer: { p50: number; p95: number; max: number }
  /** share of seeds whose toAnswer exceeds each of BUDGETS */
  overBudget: number[]
  /** the longest prompt + SFT target, and the share whose positions (one less) exceed the context */
  sequenceMax: number
  overContext: number
}

function lengths(t: Tokenizer, examples: ReturnType<typeof generateWorkedTask>[]): Lengths {
  const toAnswer = examples.map((e) => t.encode(answerTarget(e)).length - 1)
  const sequence = examples.map((e, i) => t.encode(framePrompt(e.task)).length + toAnswer[i]! + 1)
  return {
    toAnswer: { p50: percentile(toAnswer, 50), p95: percentile(toAnswer, 95), max: Math.max(...toAnswer) },
    overBudget: BUDGETS.map((budget) => toAnswer.filter((n) => n > budget).length / examples.length),
    sequenceMax: Math.max(...sequence),
    overContext: sequence.filter((n) => n - 1 > CONTEXT).length / examples.length,
  }
}

const rows = []
for (const { name: family } of REASONING_FAMILIES)
  for (const difficulty of [1, 2, 3] as Difficulty[]) {
    const examples = Array.from({ length: SEEDS }, (_, seed) => generateWorkedTask(family, difficulty, seed))
    for (const { working } of examples) {
      if (working === undefined) continue
      if (!/^[\x20-\x7e]*$/.test(working)) throw new Error(`a working outside printable ASCII: ${working}`)
      for (const t of Object.values(tokenizers))
        if (t.decode(t.encode(working)) !== working)
          throw new Error(`a working does not round-trip: ${working}`)
    }
    rows.push({
      family,
      difficulty,
      withWorking: examples.filter((e) => e.working !== undefined).length / SEEDS,
      shipped: lengths(tokenizers.shipped!, examples),
      next: lengths(tokenizers.next!, examples),
    })
  }

const pct = (f: number) => `${(100 * f).toFixed(1)}%`.padStart(6)
const cell = ({ toAnswer, overBudget, sequenceMax }: Lengths) =>
  [toAnswer.p50, toAnswer.p95, toAnswer.max].map((n) => String(n).padStart(3)).join(' ') +
  ` ${overBudget.map(pct).join(' ')} ${String(sequenceMax).padStart(4)}`
console.log(
  `\nTokens to the answer (working + tagged answer), ${SEEDS} seeds; longest prompt + target vs ${CONTEXT}`,
)
console.log(
  `${''.padEnd(27)}worked | shipped p50 p95 max    >48    >64 seqmax | next p50 p95 max    >48    >64 seqmax`,
)
for (const r of rows)
  console.log(
    `${r.family.padEnd(24)} ${r.difficulty}  ${pct(r.withWorking)} |     ${cell(r.shipped)} |   ${cell(r.next)}`,
  )
await writeResults('bench/results/working-lengths.json', {
  seeds: SEEDS,
  budgets: BUDGETS,
  context: CONTEXT,
  rows,
})
