// What the groups of a model carry: G fresh completions of --tasks tasks per cell of the tab's draw,
// sampled and scored as a peer samples and scores its own (the tab's sampling and new tokens), each
// group sorted by what differs inside it — nothing (flat), correctness, the answer format, or the
// length term alone (EOS found by some completions and not others). A signal-first draw and the
// signal-only step take every group that is not flat, so this says what their signal is made of.
// Writes bench/results/group-signal.json and prints a table.
//   node --import ./src/polyfills/register.js bench/group-signal.ts [--tasks 48] [--model DIR]
import { fileURLToPath } from 'node:url'
import { weightsHash } from '../src/compute/model/checkpoint.ts'
import { parseArgs } from 'node:util'
import { DEFAULT_LEARNING, learningCells } from '../src/core/learning/learning-config.ts'
import { generateReasoningTask } from '../src/core/tasks/generate-reasoning-task.ts'
import type { ReasoningTask } from '../src/core/tasks/task.ts'
import { CODEZERO_REWARD } from '../src/core/tasks/reward.ts'
import { benchPolicy, sampleScoredGroups } from './bench-policy.ts'
import { fmt, positiveInt, printTable, writeResults, type Row } from './stats.ts'
import { loadBenchModel } from './swarm-vs-solo-arms.ts'

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '48' },
    model: { type: 'string', default: `public${DEFAULT_LEARNING.model}` },
  },
})
const tasksPerCell = positiveInt(values.tasks, 'tasks')
/** Task seeds far from the RL draw's and the evaluation's, so no cell's tasks are theirs. */
const SEED_BASE = 9_000_000

type Kind = 'flat' | 'correctness' | 'format' | 'lengthOnly'

/** What differs inside one group of CodeZero rewards (src/core/tasks/reward.ts). */
function kindOf(rewards: readonly number[]): Kind {
  if (new Set(rewards).size === 1) return 'flat'
  // correct ± the length term stays above incorrect ± it; a missing format is below both
  const correct = new Set(rewards.map((r) => r >= CODEZERO_REWARD.correct - CODEZERO_REWARD.lengthBonus))
  if (correct.size > 1) return 'correctness'
  const formatted = new Set(
    rewards.map((r) => r > CODEZERO_REWARD.missingFormat + CODEZERO_REWARD.lengthBonus),
  )
  return formatted.size > 1 ? 'format' : 'lengthOnly'
}

const model = loadBenchModel(values.model)
const { sampling, groupSize } = DEFAULT_LEARNING
const policy = benchPolicy(model, { sampling, grpo: DEFAULT_LEARNING.grpo })
const cells = []
const rows: Row[] = []
for (const cell of learningCells(DEFAULT_LEARNING)) {
  if (cell.kind !== 'reasoning') continue
  const family = cell.family
  const tasks = Array.from(
    { length: tasksPerCell },
    (_, i) => generateReasoningTask(family, cell.difficulty, SEED_BASE + i) as ReasoningTask,
  )
  const { groups } = await sampleScoredGroups(policy, tasks, groupSize, sampling.maxNewTokens, 'group-signal')
  const kinds: Record<Kind, number> = { flat: 0, correctness: 0, format: 0, lengthOnly: 0 }
  for (const g of groups) kinds[kindOf(g.rewards)]++
  const completions = groups.flatMap((g) => g.completions)
  const eos = completions.filter((c) => c.at(-1) === model.eosId).length / completions.length
  cells.push({ family, difficulty: cell.difficulty, groups: groups.length, kinds, eosShare: eos })
  rows.push({
    metric: `${family} d${cell.difficulty}: groups that differ (correctness / format / length only)`,
    value: `${groups.length - kinds.flat} of ${groups.length}`,
    baseline: `${kinds.correctness} / ${kinds.format} / ${kinds.lengthOnly}`,
    ratio: `EOS ${fmt(100 * eos)}%`,
  })
}
printTable(
  `What differs inside G = ${groupSize} groups of ${values.model}, ${tasksPerCell} tasks a cell`,
  rows,
)
await writeResults(fileURLToPath(new URL('./results/group-signal.json', import.meta.url)), {
  model: values.model,
  weightsHash: weightsHash(model.config, model.params),
  groupSize,
  sampling,
  tasksPerCell,
  cells,
})
