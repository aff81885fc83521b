// Does one GRPO step on a real batch go the right way, and what does it do to everything else? A check
// of the step and of the lr, apart from the swarm: G completions of each of `--tasks` reserved-free
// prompts sampled at the swarm's sampling from a model folder (the reproducible policy, as a peer
// samples), scored, and trained on `--steps` times over (on-policy each time, the trainer worker's
// path). After each step: the summed log-prob of the batch's positive-advantage and of its
// negative-advantage completions (the step must raise the first and lower the second), and the mean
// reward of fresh samples on the same prompts (what the step did to the policy as a whole). Writes
// bench/results/step-direction.json and prints a table per lr.
//   node --import ./src/polyfills/register.js bench/step-direction.ts [--model DIR] [--family F]
//     [--difficulty 1] [--tasks 8] [--group-size 4] [--steps 8] [--lrs 1e-3,1e-4,3e-5] [--max-new-tokens 64]
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { toFloat } from '../src/compute/kernels/ref/tensor.ts'
import { tokenLogProbsOf } from '../src/compute/model/grpo-step.ts'
import { DEFAULT_LEARNING } from '../src/core/learning/learning-config.ts'
import { buildRolloutBatch } from '../src/compute/model/rollout-batch.ts'
import { generateReasoningTask } from '../src/core/tasks/generate-reasoning-task.ts'
import { isReservedPrompt } from '../src/core/tasks/reserved-prompts.ts'
import type { Difficulty, ReasoningTask } from '../src/core/tasks/task.ts'
import { benchPolicy, sampleScoredGroups } from './bench-policy.ts'
import { fmt, printTable } from './stats.ts'
import { loadBenchModel } from './swarm-vs-solo-arms.ts'

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'public/models/tabswarm-next/' },
    family: { type: 'string', default: 'modular-arithmetic' },
    difficulty: { type: 'string', default: '1' },
    tasks: { type: 'string', default: '8' },
    'group-size': { type: 'string', default: '4' },
    steps: { type: 'string', default: '8' },
    lrs: { type: 'string', default: '1e-3,1e-4,3e-5' },
    'max-new-tokens': { type: 'string', default: '64' },
  },
})
const model = loadBenchModel(values.model)
const groupSize = Number(values['group-size'])
const maxNewTokens = Number(values['max-new-tokens'])
// seeds from 5,000 on, reserved prompts skipped (the training draw never has them either)
const tasks: ReasoningTask[] = []
for (let seed = 5_000; tasks.length < Number(values.tasks); seed++) {
  const task = generateReasoningTask(values.family, Number(values.difficulty) as Difficulty, seed)
  if (!isReservedPrompt(task.prompt)) tasks.push(task)
}

interface StepRow {
  step: number
  positiveLogProb: number
  negativeLogProb: number
  freshReward: number
}

async function runLr(lr: number) {
  const policy = benchPolicy(model, {
    sampling: { ...DEFAULT_LEARNING.sampling, maxNewTokens },
    grpo: { ...DEFAULT_LEARNING.grpo, lr },
  })
  const sampleGroups = (key: string) => sampleScoredGroups(policy, tasks, groupSize, maxNewTokens, key)
  const fixed = await sampleGroups('batch')
  const batch = buildRolloutBatch(fixed.groups, model.eosId, model.config.maxSeqLen)
  const L = batch.inputs.seqLen
  const logProbs = () => {
    const lp = toFloat(tokenLogProbsOf(model.config, policy.state.params, batch))
    let positive = 0
    let negative = 0
    batch.advantages.forEach((a, r) => {
      let sum = 0
      for (let i = 0; i < L; i++) if (batch.mask[r * L + i]) sum += lp[r * L + i]!
      if (a > 0) positive += sum
      else if (a < 0) negative += sum
    })
    return { positiveLogProb: positive, negativeLogProb: negative }
  }
  const rows: StepRow[] = [{ step: 0, ...logProbs(), freshReward: fixed.meanReward }]
  for (let step = 1; step <= Number(values.steps); step++) {
    await policy.train(fixed.groups)
    const fresh = await sampleGroups(`fresh-${step}`)
    rows.push({ step, ...logProbs(), freshReward: fresh.meanReward })
  }
  const signalRows = batch.advantages.filter((a) => a !== 0).length
  return { lr, rows: batch.advantages.length, signalRows, steps: rows }
}

const runs = []
for (const lr of values.lrs.split(',').map(Number)) {
  const run = await runLr(lr)
  runs.push(run)
  printTable(
    `lr ${lr}: ${tasks.length} ${values.family} d${values.difficulty} prompts × G = ${groupSize} (${run.signalRows} of ${run.rows} rows with an advantage), one batch trained ${values.steps} times`,
    run.steps.map((s) => ({
      metric: `step ${s.step}`,
      value: `log-prob + ${fmt(s.positiveLogProb, 2)}  − ${fmt(s.negativeLogProb, 2)}`,
      baseline: `fresh reward ${fmt(s.freshReward, 3)}`,
      ratio: s.step === 0 ? '' : `Δ+ ${fmt(s.positiveLogProb - run.steps[0]!.positiveLogProb, 2)}`,
    })),
  )
}
const results = fileURLToPath(new URL('./results/', import.meta.url))
await mkdir(results, { recursive: true })
await writeFile(
  `${results}step-direction.json`,
  `${JSON.stringify({ model: values.model, weightsHash: model.manifest.weightsHash, family: values.family, difficulty: Number(values.difficulty), tasks: tasks.length, groupSize, maxNewTokens, runs }, null, 1)}\n`,
)
