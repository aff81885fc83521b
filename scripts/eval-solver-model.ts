// Greedy pass@1 of a model folder on the held-out reasoning tasks, next to the best constant answer, and
// on the reserved prompts (held out by prompt text, src/core/tasks/held-out-set.ts) per family × difficulty
// 1–3 with 95 % intervals and format failures. A model whose recipe holds the reserved prompts out is
// validated on the held-out seeds without them (the stop step is chosen there, never on the test set).
//   node --import ./src/polyfills/register.js scripts/eval-solver-model.ts [--model DIR] [--count N]
//     [--reserved-per-cell N] [--out FILE]
// Evaluates the shipped (rounded) weights with the float64 forward; writes bench/results/solver-quality.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { readCheckpoint } from '../src/compute/model/checkpoint.ts'
import { flatFromParams } from '../src/compute/model/f64/flat-params.ts'
import { parseHfConfig } from '../src/compute/model/load/hf-config.ts'
import {
  EVAL_MAX_NEW_TOKENS,
  evaluateHeldOut,
  evaluateReserved,
  type HeldOutRow,
} from '../src/compute/model/sft/held-out-eval.ts'
import { HELD_OUT_COUNT, HELD_OUT_SEED_START } from '../src/compute/model/sft/sft-data.ts'
import type { SolverRecipe } from '../src/compute/model/sft/solver-training.ts'
import { parseTokenizerJson } from '../src/compute/model/tokenizer/bpe-tokenizer.ts'
import { HELD_OUT_PER_CELL, HELD_OUT_SCAN_START } from '../src/core/tasks/held-out-set.ts'
import type { PassInterval } from '../src/core/tasks/pass-interval.ts'
import type { Difficulty } from '../src/core/tasks/task.ts'

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'public/models/tabswarm-tiny' },
    count: { type: 'string', default: String(HELD_OUT_COUNT) },
    'reserved-per-cell': { type: 'string', default: String(HELD_OUT_PER_CELL) },
    out: { type: 'string', default: 'bench/results/solver-quality.json' },
  },
})
const perCell = Number(values['reserved-per-cell'])
if (!Number.isInteger(perCell) || perCell < 1)
  throw new RangeError(`--reserved-per-cell must be a positive integer (got ${values['reserved-per-cell']})`)
/** The reserved set's difficulties: the swarm's start (1), the next, and one beyond. */
const RESERVED_DIFFICULTIES: readonly Difficulty[] = [1, 2, 3]
const count = Number(values.count)
if (!Number.isInteger(count) || count < 1 || count > HELD_OUT_COUNT)
  throw new RangeError(`--count must be an integer in 1…${HELD_OUT_COUNT} (got ${values.count})`)

const read = (path: string) => new Uint8Array(readFileSync(join(values.model, path)))
const { eosIds } = parseHfConfig(read('config.json'))
const { config, params } = readCheckpoint(read('model.safetensors'))
const tokenizer = parseTokenizerJson(JSON.parse(new TextDecoder().decode(read('tokenizer.json'))))

const model = { config, views: flatFromParams(config, params).views, tokenizer, stopToken: eosIds[0] ?? -1 }
// a model whose recipe held the reserved prompts out is validated without them, as its training was
// (the folder's training chain carries the recipe; a folder without one is validated on every seed)
const chainFile = join(values.model, 'training-chain.json')
const heldOut = existsSync(chainFile)
  ? (JSON.parse(readFileSync(chainFile, 'utf8')) as { recipe: SolverRecipe }).recipe.hyperparameters.heldOut
  : undefined
const started = performance.now()
const rows = evaluateHeldOut(model, count, heldOut)
const windowSeconds = (performance.now() - started) / 1000
const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const line = (r: HeldOutRow) =>
  `${r.family.padEnd(24)} ${r.difficulty.padEnd(5)} ${pct(r.pass).padStart(6)}  ${pct(r.constantRate).padStart(8)}  ` +
  `${pct(r.pass - r.constantRate).padStart(6)}  ${pct(r.formatted).padStart(9)}  ${r.inWindow ? 'yes' : 'no'}`
console.log('family                   diff  pass@1  constant  margin  formatted  window')
for (const row of rows) console.log(line(row))

const reservedStarted = performance.now()
const reserved = evaluateReserved(model, RESERVED_DIFFICULTIES, perCell)
const reservedSeconds = (performance.now() - reservedStarted) / 1000
const interval = (r: PassInterval) =>
  `${pct(r.pass).padStart(6)}  ${`${pct(r.ci95[0])}–${pct(r.ci95[1])}`.padEnd(13)}  ${pct(r.formatFailures).padStart(8)}`
console.log(`\nreserved prompts (held out by text), greedy, up to ${perCell} distinct per cell`)
console.log('family                   diff  prompts  pass@1  95 % interval  no answer')
for (const r of reserved.rows)
  console.log(
    `${r.family.padEnd(24)} ${String(r.difficulty).padEnd(5)} ${`${r.tasks}${r.exhausted ? ' (all)' : ''}`.padStart(9)}  ${interval(r)}`,
  )
console.log(
  `${'uniform mix over cells'.padEnd(30)} ${String(reserved.mix.tasks).padStart(9)}  ${interval(reserved.mix)}`,
)
const result = {
  model: values.model,
  seeds: { first: HELD_OUT_SEED_START, count },
  decoding: { greedy: true, maxNewTokens: EVAL_MAX_NEW_TOKENS },
  window: 'pass@1 ≥ best constant + 15 points and < 70% (difficulties 1-2 combined; constant per difficulty)',
  seconds: Math.round(windowSeconds),
  rows,
  reserved: {
    set: { scanStart: HELD_OUT_SCAN_START, perCell, difficulties: RESERVED_DIFFICULTIES },
    interval: 'Wilson 95 % per cell; the uniform mix: stratified mean, normal 95 %',
    seconds: Math.round(reservedSeconds),
    secondsPerPrompt: reservedSeconds / reserved.mix.tasks,
    ...reserved,
  },
}
mkdirSync(dirname(values.out), { recursive: true })
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`)
console.log(`wrote ${values.out} (window ${result.seconds} s, reserved set ${result.reserved.seconds} s)`)
