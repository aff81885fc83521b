// Does what GRPO learns on its prompts carry to prompts it never saw? Apart from the swarm: one policy
// trains on a fixed pool of `--pool` distinct prompts of one family and difficulty (none of them
// reserved), `--tasks` of them a step in a fixed cycle, so every pool prompt comes back every
// pool/tasks steps; G completions each at the swarm's sampling, one on-policy step on the groups whose
// rewards differ (the swarm's step). Every `--eval-every` steps it scores greedy pass@1 on the whole
// pool (what it learned there) and on the cell's reserved prompts (what carried: SFT, the RL draw and
// this pool never hold them), each with its Wilson interval. Writes bench/results/transfer-<name>.json.
//   node --import ./src/polyfills/register.js bench/transfer.ts [--model DIR] [--family F]
//     [--difficulty 2] [--pool 64] [--tasks 8] [--group-size 8] [--steps 200] [--lr 1e-4]
//     [--eval-every 25] [--held-out 500] [--max-new-tokens 64] [--name NAME]
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { greedyCompleter } from '../src/compute/model/sft/held-out-eval.ts'
import { scoreCompletions } from '../src/compute/model/sft/solver-quality.ts'
import { DEFAULT_LEARNING } from '../src/core/learning/learning-config.ts'
import { generateReasoningTask } from '../src/core/tasks/generate-reasoning-task.ts'
import { heldOutCell } from '../src/core/tasks/held-out-set.ts'
import { cellInterval, type PassInterval } from '../src/core/tasks/pass-interval.ts'
import { isReservedPrompt } from '../src/core/tasks/reserved-prompts.ts'
import type { Difficulty, ReasoningTask } from '../src/core/tasks/task.ts'
import { benchPolicy, sampleScoredGroups } from './bench-policy.ts'
import { fmt, positiveInt, printTable } from './stats.ts'
import { heldOutModel, loadBenchModel } from './swarm-vs-solo-arms.ts'

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'public/models/tabswarm-next/' },
    family: { type: 'string', default: 'fraction-simplification' },
    difficulty: { type: 'string', default: '2' },
    pool: { type: 'string', default: '64' },
    tasks: { type: 'string', default: '8' },
    'group-size': { type: 'string', default: '8' },
    steps: { type: 'string', default: '200' },
    lr: { type: 'string', default: '1e-4' },
    'eval-every': { type: 'string', default: '25' },
    'held-out': { type: 'string', default: '500' },
    'max-new-tokens': { type: 'string', default: '64' },
    name: { type: 'string', default: 'transfer' },
  },
})
const int = (flag: keyof typeof values) => positiveInt(values[flag] as string, flag)
const poolSize = int('pool')
const perStep = int('tasks')
const groupSize = int('group-size')
const steps = int('steps')
const evalEvery = int('eval-every')
const heldOutCount = int('held-out')
const maxNewTokens = int('max-new-tokens')
const lr = Number(values.lr)
if (!(lr > 0)) throw new RangeError(`--lr must be a positive number (got ${values.lr})`)
const difficulty = Number(values.difficulty) as Difficulty
const family = values.family
const model = loadBenchModel(values.model)

// distinct prompts from seed 5,000 on, reserved ones skipped (the training draw never has them either)
const pool: ReasoningTask[] = []
const seen = new Set<string>()
for (let seed = 5_000; pool.length < poolSize && seed < 5_000 + 100 * poolSize; seed++) {
  const task = generateReasoningTask(family, difficulty, seed)
  if (isReservedPrompt(task.prompt) || seen.has(task.prompt)) continue
  seen.add(task.prompt)
  pool.push(task)
}
if (pool.length < poolSize)
  throw new RangeError(
    `${family} d${difficulty} has only ${pool.length} distinct unreserved prompts in reach`,
  )
const heldOut = heldOutCell(family, difficulty, heldOutCount).tasks

const policy = benchPolicy(model, {
  sampling: { ...DEFAULT_LEARNING.sampling, maxNewTokens },
  grpo: { ...DEFAULT_LEARNING.grpo, lr },
})

interface EvalRow {
  step: number
  pool: PassInterval
  heldOut: PassInterval
}
const greedyPass = (tasks: readonly ReasoningTask[]): PassInterval => {
  const complete = greedyCompleter(heldOutModel(model, policy.state.params))
  return cellInterval(scoreCompletions(tasks, tasks.map(complete)))
}
const evals: EvalRow[] = []
const evaluate = (step: number) => {
  evals.push({ step, pool: greedyPass(pool), heldOut: greedyPass(heldOut) })
  const e = evals.at(-1)!
  process.stderr.write(
    `step ${step}: greedy pool ${fmt(e.pool.pass, 3)}, held out ${fmt(e.heldOut.pass, 3)} (${heldOut.length})\n`,
  )
}

const started = performance.now()
const rewards: number[] = []
const signalGroups: number[] = []
evaluate(0)
for (let step = 0; step < steps; step++) {
  const at = (step * perStep) % pool.length
  const tasks = Array.from({ length: perStep }, (_, i) => pool[(at + i) % pool.length]!)
  const { groups, meanReward } = await sampleScoredGroups(
    policy,
    tasks,
    groupSize,
    maxNewTokens,
    `step-${step}`,
  )
  const signal = groups.filter((g) => g.rewards.some((r) => r !== g.rewards[0]))
  if (signal.length > 0) await policy.train(signal)
  rewards.push(meanReward)
  signalGroups.push(signal.length)
  if ((step + 1) % evalEvery === 0 || step + 1 === steps) evaluate(step + 1)
}
const seconds = (performance.now() - started) / 1000

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const block = Math.max(1, Math.floor(steps / 4))
const quarters = Array.from({ length: Math.ceil(steps / block) }, (_, q) =>
  rewards.slice(q * block, (q + 1) * block),
)
const interval = (p: PassInterval) => `${fmt(p.pass, 3)} [${fmt(p.ci95[0], 3)}, ${fmt(p.ci95[1], 3)}]`
printTable(
  `${family} d${difficulty}: a pool of ${pool.length} prompts, ${perStep} a step × G = ${groupSize}, lr ${lr}, ${steps} steps (${fmt(seconds, 0)} s)`,
  [
    ...evals.map((e) => ({
      metric: `step ${e.step} greedy pass@1`,
      value: `pool ${interval(e.pool)}`,
      baseline: `held out ${interval(e.heldOut)}`,
      ratio: '',
    })),
    ...quarters.map((q, i) => ({
      metric: `own reward, steps ${i * block + 1}–${i * block + q.length}`,
      value: fmt(mean(q), 3),
      baseline: `signal groups ${fmt(mean(signalGroups.slice(i * block, i * block + q.length)), 2)} of ${perStep}`,
      ratio: '',
    })),
  ],
)
const results = fileURLToPath(new URL('./results/', import.meta.url))
await mkdir(results, { recursive: true })
await writeFile(
  `${results}transfer-${values.name}.json`,
  `${JSON.stringify({ model: values.model, weightsHash: model.manifest.weightsHash, family, difficulty, pool: pool.length, tasksPerStep: perStep, groupSize, steps, lr, maxNewTokens, heldOut: heldOut.length, seconds, evals, rewards, signalGroups })}\n`,
)
