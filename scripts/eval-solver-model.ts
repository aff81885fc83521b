// Greedy pass@1 of a model folder on the held-out reasoning tasks, next to the best constant answer.
//   node --import ./src/polyfills/register.js scripts/eval-solver-model.ts [--model DIR] [--count N] [--out FILE]
// Evaluates the shipped (rounded) weights with the float64 forward; writes bench/results/solver-quality.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { readCheckpoint } from '../src/model/checkpoint.ts'
import { flatFromParams } from '../src/model/f64/flat-params.ts'
import { parseHfConfig } from '../src/model/load/hf-config.ts'
import { EVAL_MAX_NEW_TOKENS, evaluateHeldOut, type HeldOutRow } from '../src/model/sft/held-out-eval.ts'
import { HELD_OUT_COUNT, HELD_OUT_SEED_START } from '../src/model/sft/sft-data.ts'
import { parseTokenizerJson } from '../src/model/tokenizer/bpe-tokenizer.ts'

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

const started = performance.now()
const rows = evaluateHeldOut(
  { config, views: flatFromParams(config, params).views, tokenizer, stopToken: eosIds[0] ?? -1 },
  count,
)
const pct = (x: number) => `${(100 * x).toFixed(1)}%`
const line = (r: HeldOutRow) =>
  `${r.family.padEnd(24)} ${r.difficulty.padEnd(5)} ${pct(r.pass).padStart(6)}  ${pct(r.constantRate).padStart(8)}  ` +
  `${pct(r.pass - r.constantRate).padStart(6)}  ${pct(r.formatted).padStart(9)}  ${r.inWindow ? 'yes' : 'no'}`
console.log('family                   diff  pass@1  constant  margin  formatted  window')
for (const row of rows) console.log(line(row))
const result = {
  model: values.model,
  seeds: { first: HELD_OUT_SEED_START, count },
  decoding: { greedy: true, maxNewTokens: EVAL_MAX_NEW_TOKENS },
  window: 'pass@1 ≥ best constant + 15 points and < 70% (difficulties 1-2 combined; constant per difficulty)',
  seconds: Math.round((performance.now() - started) / 1000),
  rows,
}
mkdirSync(dirname(values.out), { recursive: true })
writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`)
console.log(`wrote ${values.out} (${result.seconds} s)`)
