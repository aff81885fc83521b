// Trains tabswarm's own small models and writes a model folder (npm run model:train): tabswarm-tiny
// (the shipped solver) or, with --recipe micro, tabswarm-micro (the learning-swarm tests' model); --recipe
// next trains tabswarm-tiny's next recipe (data clear of the held-out prompts, every family's worked
// solution in its targets).
//   node --import ./src/polyfills/register.js scripts/train-solver-model.ts [--recipe tiny|next|either|micro] [--out DIR]
//     [--steps N] [--workers N] [--eval-every N [--eval-from S] [--eval-count C] [--snapshots DIR]]
// The same command gives the same bytes, with any number of workers: see src/compute/model/sft/solver-training.ts
// and gradient-pool.ts. Workers default to one per sequence of a batch, at most one per core.
// --steps N trains a schedule of N steps to its end (the recipe's stopAfter is dropped).
// --eval-every N scores greedy pass@1 on C held-out seeds per family and difficulty (default 200) every N
// steps from step S (default N) and at the end; with --snapshots each scored step's model folder is
// written to DIR/step-<n>/ with stopAfter = n in its recipe, so that folder is exactly what a recipe
// stopped there trains (how the shipped model's stop step was chosen: docs/solver-model.md).
import { availableParallelism } from 'node:os'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { MICRO_NAME, MICRO_RECIPE } from '../src/compute/model/sft/micro-recipe.ts'
import {
  EITHER_SOLVER_RECIPE,
  NEXT_SOLVER_RECIPE,
  SOLVER_RECIPE,
} from '../src/compute/model/sft/solver-recipe.ts'
import { SOLVER_NAME, solverFolderFiles } from '../src/compute/model/sft/solver-folder.ts'
import { batchGradient } from '../src/compute/model/f64/sft-step.ts'
import { flatFromParams, parameterCount, roundToParams } from '../src/compute/model/f64/flat-params.ts'
import { combinedRows, evaluateHeldOut, type HeldOutRow } from '../src/compute/model/sft/held-out-eval.ts'
import { END_OF_TEXT, HELD_OUT_COUNT } from '../src/compute/model/sft/sft-data.ts'
import { gradientPool } from '../src/compute/model/sft/gradient-pool.ts'
import {
  completeStep,
  lastStep,
  nextBatch,
  startRun,
  type ChainStep,
  type SolverRecipe,
  type TrainingRun,
} from '../src/compute/model/sft/solver-training.ts'

/** Progress lines: often enough to see it working, rarely enough to stay readable. */
const REPORT_EVERY = 25

const RECIPES: Record<string, { name: string; recipe: SolverRecipe }> = {
  tiny: { name: SOLVER_NAME, recipe: SOLVER_RECIPE },
  // tiny's next recipe: data clear of the held-out prompts, every family's working (solver-recipe.ts)
  next: { name: SOLVER_NAME, recipe: NEXT_SOLVER_RECIPE },
  // the next recipe with two ways to answer: a working on half the examples (solver-recipe.ts)
  either: { name: SOLVER_NAME, recipe: EITHER_SOLVER_RECIPE },
  micro: { name: MICRO_NAME, recipe: MICRO_RECIPE },
}

const { values } = parseArgs({
  options: {
    recipe: { type: 'string', default: 'tiny' },
    out: { type: 'string' },
    steps: { type: 'string' },
    workers: { type: 'string' },
    'eval-every': { type: 'string' },
    'eval-from': { type: 'string' },
    'eval-count': { type: 'string', default: '200' },
    snapshots: { type: 'string' },
  },
})
function positiveInteger(flag: string, text: string | undefined, max = Infinity): number | undefined {
  if (text === undefined) return undefined
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new RangeError(`--${flag} must be an integer in 1…${max} (got ${text})`)
  return n
}
const chosen = RECIPES[values.recipe]
if (!chosen)
  throw new RangeError(`--recipe must be one of ${Object.keys(RECIPES).join(', ')} (got ${values.recipe})`)
const { name } = chosen
const out = values.out ?? `public/models/${name}`
const stepsFlag = positiveInteger('steps', values.steps)
const recipe: SolverRecipe =
  stepsFlag === undefined
    ? chosen.recipe
    : {
        ...chosen.recipe,
        hyperparameters: { ...chosen.recipe.hyperparameters, steps: stepsFlag, stopAfter: undefined },
      }
const steps = lastStep(recipe.hyperparameters)
const workers =
  positiveInteger('workers', values.workers) ??
  Math.min(recipe.hyperparameters.batchSize, availableParallelism())
const evalEvery = positiveInteger('eval-every', values['eval-every'])
const evalFrom = positiveInteger('eval-from', values['eval-from']) ?? evalEvery ?? steps
const evalCount = positiveInteger('eval-count', values['eval-count'], HELD_OUT_COUNT)!
if (values.snapshots !== undefined && evalEvery === undefined)
  throw new RangeError('--snapshots needs --eval-every (snapshots are the evaluated steps)')

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
const evaluations: { step: number; rows: HeldOutRow[] }[] = []

function writeFolder(dir: string, files: Map<string, Uint8Array>, quiet = false) {
  for (const [path, bytes] of files) {
    const target = join(dir, path)
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, bytes)
    if (!quiet) console.log(`wrote ${target} (${bytes.length} bytes)`)
  }
}

/** Scores the weights as they would ship (rounded to the checkpoint grid) and keeps the snapshot. */
function evaluateStep(run: TrainingRun) {
  const t0 = performance.now()
  const { config } = run.recipe
  const stopToken = run.tokenizer.tokenId(END_OF_TEXT) ?? -1
  const views = flatFromParams(config, roundToParams(run.model)).views
  // a recipe that holds the reserved prompts out chooses its stop step on validation tasks without them
  const rows = evaluateHeldOut(
    { config, views, tokenizer: run.tokenizer, stopToken },
    evalCount,
    run.recipe.hyperparameters.heldOut,
  )
  evaluations.push({ step: run.step, rows })
  const both = combinedRows(rows)
  const cells = both.map(
    (r) => `${r.family.split('-')[0]} ${(100 * r.pass).toFixed(1)}${r.inWindow ? '' : '*'}`,
  )
  console.log(
    `eval step ${run.step}: ${cells.join('  ')}  — ${both.filter((r) => r.inWindow).length}/${both.length} ` +
      `in the window (* = out; ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  )
  if (values.snapshots === undefined) return
  const stopped = { ...run.recipe, hyperparameters: { ...run.recipe.hyperparameters, stopAfter: run.step } }
  writeFolder(
    join(values.snapshots, `step-${run.step}`),
    solverFolderFiles({ ...run, recipe: stopped }, chain, name),
    true,
  )
  writeFileSync(
    join(values.snapshots, 'evaluations.json'),
    `${JSON.stringify({ seeds: evalCount, evaluations }, null, 1)}\n`,
  )
}

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
  if (
    evalEvery !== undefined &&
    step.step >= evalFrom &&
    ((step.step - evalFrom) % evalEvery === 0 || step.step === steps)
  )
    evaluateStep(run)
}
await pool?.close()
const files = solverFolderFiles(run, chain, name)
writeFolder(out, files)
console.log(`weights hash ${JSON.parse(new TextDecoder().decode(files.get('tabswarm.json'))).weightsHash}`)
// CPU time too: on a shared machine the wall time says more about the neighbours than about the run.
console.log(`done in ${seconds().toFixed(0)} s (${(process.cpuUsage().user / 1e6).toFixed(0)} s of CPU)`)
