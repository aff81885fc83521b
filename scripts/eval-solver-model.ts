// Greedy pass@1 of a model folder on the held-out reasoning tasks, next to the best constant answer.
//   node --import ./src/polyfills/register.js scripts/eval-solver-model.ts [--model DIR] [--count N] [--out FILE]
// Evaluates the shipped (rounded) weights with the float64 forward; writes bench/results/solver-quality.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { readCheckpoint } from '../src/model/checkpoint.ts'
import { flatFromParams } from '../src/model/f64/flat-params.ts'
import { GreedyDecoder } from '../src/model/f64/greedy-decoder.ts'
import { parseHfConfig } from '../src/model/load/hf-config.ts'
import { framePrompt, heldOutTasks, HELD_OUT_COUNT, HELD_OUT_SEED_START } from '../src/model/sft/sft-data.ts'
import {
  bestConstantAnswer,
  combineScores,
  inTargetWindow,
  scoreCompletions,
  type SolveScore,
} from '../src/model/sft/solver-quality.ts'
import { parseTokenizerJson } from '../src/model/tokenizer/bpe-tokenizer.ts'
import { REASONING_FAMILIES } from '../src/tasks/reasoning-families.ts'
import type { Difficulty, ReasoningTask } from '../src/tasks/task.ts'

/** Room for the longest completions: modular arithmetic's working and answer take up to 45 tokens. */
const MAX_NEW_TOKENS = 64
const DIFFICULTIES: readonly Difficulty[] = [1, 2]

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'public/models/tabswarm-tiny' },
    count: { type: 'string', default: String(HELD_OUT_COUNT) },
    out: { type: 'string', default: 'bench/results/solver-quality.json' },
  },
})
const count = Number(values.count)
if (!Number.isInteger(count) || count < 1 || count > HELD_OUT_COUNT)
  throw new RangeError(`--count must be an integer in 1…${HELD_OUT_COUNT} (got ${values.count})`)

const read = (path: string) => new Uint8Array(readFileSync(join(values.model, path)))
const { eosIds } = parseHfConfig(read('config.json'))
const { config, params } = readCheckpoint(read('model.safetensors'))
const tokenizer = parseTokenizerJson(JSON.parse(new TextDecoder().decode(read('tokenizer.json'))))
const decoder = new GreedyDecoder(config, flatFromParams(config, params).views)
const stopToken = eosIds[0] ?? -1

function complete(task: ReasoningTask): string {
  const out = decoder.generate(tokenizer.encode(framePrompt(task)), {
    maxNewTokens: MAX_NEW_TOKENS,
    stopToken,
  })
  return tokenizer.decode(out.filter((id) => id !== stopToken))
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const started = performance.now()
const rows: Record<string, unknown>[] = []
console.log('family                   diff  pass@1  constant  margin  formatted  window')
const print = (family: string, difficulty: string, score: SolveScore, constantRate: number) => {
  const ok = inTargetWindow(score.pass, constantRate)
  console.log(
    `${family.padEnd(24)} ${difficulty.padEnd(5)} ${pct(score.pass).padStart(6)}  ${pct(constantRate).padStart(8)}  ` +
      `${pct(score.pass - constantRate).padStart(6)}  ${pct(score.formatted).padStart(9)}  ${ok ? 'yes' : 'no'}`,
  )
  return ok
}
for (const family of REASONING_FAMILIES) {
  const parts = DIFFICULTIES.map((difficulty) => {
    const tasks = heldOutTasks(family.name, difficulty).slice(0, count)
    const score = scoreCompletions(tasks, tasks.map(complete))
    const constant = bestConstantAnswer(tasks)
    const inWindow = print(family.name, String(difficulty), score, constant.rate)
    rows.push({
      family: family.name,
      difficulty: String(difficulty),
      ...score,
      bestConstant: constant,
      inWindow,
    })
    return { score, constant }
  })
  const { score, constantRate } = combineScores(parts)
  const inWindow = print(family.name, '1-2', score, constantRate)
  rows.push({
    family: family.name,
    difficulty: '1-2',
    ...score,
    bestConstant: { rate: constantRate },
    inWindow,
  })
}
const result = {
  model: values.model,
  seeds: { first: HELD_OUT_SEED_START, count },
  decoding: { greedy: true, maxNewTokens: MAX_NEW_TOKENS },
  window: 'pass@1 ≥ best constant + 15 points and < 70% (difficulties 1-2 combined; constant per difficulty)',
  seconds: Math.round((performance.now() - started) / 1000),
  rows,
}
mkdirSync(dirname(values.out), { recursive: true })
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`)
console.log(`wrote ${values.out} (${result.seconds} s)`)
