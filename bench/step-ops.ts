// Where one GRPO step's time goes on the TS twin: every op of TWIN_OPS timed in-process (a --cpu-prof
// profile misleads here, because V8 keeps WebAssembly in its baseline tier while profiling and the
// wasm kernels then run 5–10× slower). The batch is synthetic: `groups` prompts of 35 tokens with G
// completions of 40–61 tokens each (seeded), rewards alternating so every group has a signal; the
// shapes, not the tokens, set the cost. Each repetition steps from the shipped weights; the table
// gives the median per op over the repetitions. Writes bench/results/step-ops.json.
//   node --import ./src/polyfills/register.js bench/step-ops.ts [--groups 4] [--g 4] [--reps 5]
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { readCheckpoint, weightsHash } from '../src/compute/model/checkpoint.ts'
import { grpoStepProgram } from '../src/compute/model/grpo-step.ts'
import { runSync, type OpTable } from '../src/compute/model/program.ts'
import { initTrainState } from '../src/compute/model/train-step.ts'
import { TWIN_OPS } from '../src/compute/model/twin-ops.ts'
import { seededRandom } from '../src/compute/kernels/ref/seeded-random.ts'
import { DEFAULT_LEARNING } from '../src/core/learning/learning-config.ts'
import { buildRolloutBatch } from '../src/compute/model/rollout-batch.ts'
import { type TokenizedGroup } from '../src/core/learning/tokenized-group.ts'
import { ADAM_MOMENTS } from '../src/compute/proof/work-params.ts'
import { readShipped } from './shipped-solver.ts'
import { fmt, percentile, positiveInt, printTable, writeResults, type Row } from './stats.ts'

const { values } = parseArgs({
  options: {
    groups: { type: 'string', default: '4' },
    g: { type: 'string', default: '4' },
    reps: { type: 'string', default: '5' },
  },
})
const groups = positiveInt(values.groups, 'groups')
const g = positiveInt(values.g, 'g')
const reps = positiveInt(values.reps, 'reps')
const GRPO = { ...DEFAULT_LEARNING.grpo, ...ADAM_MOMENTS }

const { config, params } = readCheckpoint(readShipped('model.safetensors'))
const eos = config.vocabSize - 1
const rand = seededRandom(19)
const token = () => Math.floor(rand() * eos)
const batch: TokenizedGroup[] = Array.from({ length: groups }, () => ({
  promptIds: Array.from({ length: 35 }, token),
  completions: Array.from({ length: g }, () => Array.from({ length: 40 + Math.floor(rand() * 22) }, token)),
  rewards: Array.from({ length: g }, (_, i) => i % 2),
}))
const rollout = buildRolloutBatch(batch, eos, config.maxSeqLen)

/** TWIN_OPS with every op's calls timed into `ms` and counted into `calls`. */
function timedOps(ms: Map<string, number>, calls: Map<string, number>): OpTable {
  const entries = Object.entries(TWIN_OPS).map(([name, op]) => {
    const timed = (...args: unknown[]) => {
      const t0 = performance.now()
      const out = (op as (...a: unknown[]) => unknown)(...args)
      ms.set(name, (ms.get(name) ?? 0) + performance.now() - t0)
      calls.set(name, (calls.get(name) ?? 0) + 1)
      return out
    }
    return [name, timed]
  })
  return Object.fromEntries(entries) as OpTable
}

const stepMs: number[] = []
const perOp = new Map<string, number[]>()
const callsPerStep = new Map<string, number>()
const hashes = new Set<string>()
for (let r = 0; r < reps; r++) {
  const ms = new Map<string, number>()
  const calls = new Map<string, number>()
  const ops = timedOps(ms, calls)
  const t0 = performance.now()
  const step = runSync(grpoStepProgram(config, initTrainState(config, params), rollout, undefined, GRPO), ops)
  stepMs.push(performance.now() - t0)
  hashes.add(weightsHash(config, step.state.params))
  for (const [name, t] of ms) perOp.set(name, [...(perOp.get(name) ?? []), t])
  for (const [name, n] of calls) callsPerStep.set(name, n)
}
if (hashes.size !== 1) throw new Error(`the repetitions gave ${hashes.size} different weights hashes`)

const step = percentile(stepMs, 50)
const ops = [...perOp]
  .map(([name, t]) => ({ name, ms: percentile(t, 50), calls: callsPerStep.get(name)! }))
  .sort((a, b) => b.ms - a.ms)
const rows: Row[] = [
  {
    metric: `step ${rollout.inputs.batch} × ${rollout.inputs.seqLen}`,
    value: `${fmt(step, 0)} ms`,
    baseline: `${fmt(Math.min(...stepMs), 0)}–${fmt(Math.max(...stepMs), 0)} ms`,
    ratio: '100 %',
  },
  ...ops.map((o) => ({
    metric: `${o.name} (${o.calls} calls)`,
    value: `${fmt(o.ms, 0)} ms`,
    baseline: '—',
    ratio: `${fmt((100 * o.ms) / step)} %`,
  })),
]
printTable(
  `GRPO step on the twin per op, tabswarm-tiny, ${groups} groups × G = ${g}, median of ${reps} (one thread)`,
  rows,
)
await writeResults(fileURLToPath(new URL('./results/step-ops.json', import.meta.url)), {
  groups,
  g,
  rows: rollout.inputs.batch,
  seqLen: rollout.inputs.seqLen,
  stepMs,
  stepMedianMs: step,
  weightsHash: [...hashes][0],
  ops,
})
