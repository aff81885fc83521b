// Trains tabswarm's own small models and writes a model folder (npm run model:train): tabswarm-tiny
// (the shipped solver) or, with --recipe micro, tabswarm-micro (the learning-swarm tests' model).
//   node --import ./src/polyfills/register.js scripts/train-solver-model.ts [--recipe tiny|micro] [--out DIR] [--steps N] [--workers N]
// The same command gives the same bytes, with any number of workers: see src/model/sft/solver-training.ts
// and gradient-pool.ts. Workers default to one per sequence of a batch, at most one per core.
import { availableParallelism } from 'node:os'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { parameterCount } from '../src/model/f64/flat-params.ts'
import { MICRO_NAME, MICRO_RECIPE } from '../src/model/sft/micro-recipe.ts'
import { SOLVER_RECIPE } from '../src/model/sft/solver-recipe.ts'
import { SOLVER_NAME, solverFolderFiles } from '../src/model/sft/solver-folder.ts'
import { batchGradient } from '../src/model/f64/sft-step.ts'
import { gradientPool } from '../src/model/sft/gradient-pool.ts'
import {
  completeStep,
  nextBatch,
  startRun,
  type ChainStep,
  type SolverRecipe,
} from '../src/model/sft/solver-training.ts'

/** Progress lines: often enough to see it working, rarely enough to stay readable. */
const REPORT_EVERY = 25

const RECIPES: Record<string, { name: string; recipe: SolverRecipe }> = {
  tiny: { name: SOLVER_NAME, recipe: SOLVER_RECIPE },
  micro: { name: MICRO_NAME, recipe: MICRO_RECIPE },
}

const { values } = parseArgs({
  options: {
    recipe: { type: 'string', default: 'tiny' },
    out: { type: 'string' },
    steps: { type: 'string' },
    workers: { type: 'string' },
  },
})
const chosen = RECIPES[values.recipe]
if (!chosen)
  throw new RangeError(`--recipe must be one of ${Object.keys(RECIPES).join(', ')} (got ${values.recipe})`)
const { name } = chosen
const out = values.out ?? `public/models/${name}`
const steps = values.steps === undefined ? chosen.recipe.hyperparameters.steps : Number(values.steps)
if (!Number.isInteger(steps) || steps < 1)
  throw new RangeError(`--steps must be a positive integer (got ${values.steps})`)
const recipe = { ...chosen.recipe, hyperparameters: { ...chosen.recipe.hyperparameters, steps } }
const workers =
  values.workers === undefined
    ? Math.min(recipe.hyperparameters.batchSize, availableParallelism())
    : Number(values.workers)
if (!Number.isInteger(workers) || workers < 1)
  throw new RangeError(`--workers must be a positive integer (got ${values.workers})`)

const started = performance.now()
const seconds = () => (performance.now() - started) / 1000
const run = startRun(recipe)
console.log(
  `${name}: ${parameterCount(recipe.config)} parameters, ${steps} steps of ${recipe.hyperparameters.batchSize} ` +
    `sequences; tokenizer ${run.tokenizer.vocabSize} tokens; ${workers} worker${workers === 1 ? '' : 's'} ` +
    `(${seconds().toFixed(1)} s)`,
)
// One worker: this thread computes the gradients itself (the same bits as a pool, without the threads).
const pool = workers > 1 ? gradientPool(run.model, workers) : undefined
const chain: ChainStep[] = []
let window = 0
while (run.step < steps) {
  const batch = nextBatch(run)
  const step = completeStep(run, pool ? await pool.batchGradient(batch) : batchGradient(run.model, batch))
  chain.push(step)
  window += step.loss
  if (step.step % REPORT_EVERY === 0 || step.step === steps) {
    const count = step.step % REPORT_EVERY || REPORT_EVERY
    const eta = (seconds() / step.step) * (steps - step.step)
    console.log(
      `step ${step.step}/${steps}  loss ${(window / count).toFixed(4)}  lr ${step.lr.toExponential(2)}  ` +
        `|g| ${step.gradNorm.toFixed(2)}  ${seconds().toFixed(0)} s  (eta ${eta.toFixed(0)} s)`,
    )
    window = 0
  }
}
await pool?.close()
const files = solverFolderFiles(run, chain, name)
for (const [path, bytes] of files) {
  const target = join(out, path)
  mkdirSync(dirname(target), { recursive: true })
  writeFileSync(target, bytes)
  console.log(`wrote ${target} (${bytes.length} bytes)`)
}
console.log(`weights hash ${JSON.parse(new TextDecoder().decode(files.get('tabswarm.json'))).weightsHash}`)
// CPU time too: on a shared machine the wall time says more about the neighbours than about the run.
console.log(`done in ${seconds().toFixed(0)} s (${(process.cpuUsage().user / 1e6).toFixed(0)} s of CPU)`)
