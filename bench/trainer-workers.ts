// The supervised trainer's step time on this thread vs a gradient pool of worker threads, in one
// process over the same batches of tabswarm-tiny's recipe (alternating, so a noisy neighbour hits
// both arms alike), and a check that both give the same gradient bits. Writes
// bench/results/trainer-workers.json and prints a table.
//   node --import ./src/polyfills/register.js bench/trainer-workers.ts [--steps 60] [--workers 2]
import { mkdir, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { batchGradient } from '../src/compute/model/f64/sft-step.ts'
import { gradientPool } from '../src/compute/model/sft/gradient-pool.ts'
import { SOLVER_RECIPE } from '../src/compute/model/sft/solver-recipe.ts'
import { completeStep, nextBatch, runStep, startRun } from '../src/compute/model/sft/solver-training.ts'
import { fmt, printTable } from './stats.ts'

/** Untimed steps first: the JIT and both heaps settle. */
const WARMUP_STEPS = 10

const { values } = parseArgs({
  options: { steps: { type: 'string', default: '60' }, workers: { type: 'string', default: '2' } },
})
const steps = Number(values.steps)
const workers = Number(values.workers)
if (!Number.isInteger(steps) || steps < 1) throw new RangeError(`--steps must be a positive integer`)
if (!Number.isInteger(workers) || workers < 2) throw new RangeError(`--workers must be an integer ≥ 2`)

const run = startRun(SOLVER_RECIPE)
for (let i = 0; i < WARMUP_STEPS; i++) runStep(run)
const pool = gradientPool(run.model, workers)
const alone: number[] = []
const pooled: number[] = []
let sameBits = true
try {
  for (let i = 0; i < WARMUP_STEPS + steps; i++) {
    const batch = nextBatch(run)
    const t0 = performance.now()
    const mine = batchGradient(run.model, batch)
    const t1 = performance.now()
    const theirs = await pool.batchGradient(batch)
    const t2 = performance.now()
    if (i >= WARMUP_STEPS) {
      alone.push(t1 - t0)
      pooled.push(t2 - t1)
    }
    sameBits &&= mine.loss === theirs.loss && mine.grads.every((g, j) => Object.is(g, theirs.grads[j]))
    completeStep(run, theirs)
  }
} finally {
  await pool.close()
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const result = {
  date: new Date().toISOString(),
  recipe: 'tabswarm-tiny',
  batchSize: SOLVER_RECIPE.hyperparameters.batchSize,
  cores: availableParallelism(),
  workers,
  steps,
  gradientMsAlone: mean(alone),
  gradientMsPool: mean(pooled),
  speedup: mean(alone) / mean(pooled),
  sameBits,
}
printTable(
  `trainer gradient per step: tabswarm-tiny, batch ${result.batchSize}, ${steps} steps, ${result.cores} cores`,
  [
    {
      metric: `gradient ms/step, ${workers} workers`,
      value: fmt(result.gradientMsPool),
      baseline: `${fmt(result.gradientMsAlone)} (this thread)`,
      ratio: `${fmt(result.speedup, 2)}× faster`,
    },
    { metric: 'same gradient bits', value: String(sameBits), baseline: '—', ratio: '—' },
  ],
)
await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true })
await writeFile(
  fileURLToPath(new URL('./results/trainer-workers.json', import.meta.url)),
  `${JSON.stringify(result, null, 2)}\n`,
)
if (!sameBits) process.exitCode = 1
