// The ablation table of docs/headline-bench.md from finished swarm-vs-solo runs: one row per run and arm,
// with the recipe it varied (starting model, cells drawn, G, groups generated and stepped on per round, lr, optimizer steps a round, KL, curriculum, new tokens), held-out pass@1 start → end with the
// change's 95 % interval, the cumulative-reward gain over solo (mean and per seed) and the groups per step
// that carried a signal. Reads bench/results/<name>.json for each name given; prints Markdown.
//   node --import ./src/polyfills/register.js bench/ablation-table.ts <name> [<name> …]
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { learningCells, type LearningConfig } from '../src/core/learning/learning-config.ts'
import { fmt } from './stats.ts'

const results = fileURLToPath(new URL('./results/', import.meta.url))

/** The parts of a swarm-vs-solo result (bench/swarm-vs-solo.ts `summary`) the table reads. */
interface Summary {
  seeds: number[]
  rounds: number
  model: { folder: string }
  batch: {
    groupSize: number
    groups: number
    lr: number
    lrMin?: number
    epochs?: number
    klBeta: number
    curriculum: boolean
  }
  arms: Record<
    string,
    {
      config: LearningConfig
      passAt1: { start: number; end: number; change: { change: number; ci95: [number, number] } }
      rewardGainVsSolo: number
      rewardGainVsSoloPerSeed: number[]
      informativeGroupsPerStep: number
    }
  >
}

const pts = (x: number) => `${x >= 0 ? '+' : ''}${fmt(100 * x, 1)}`
const names = process.argv.slice(2)
if (names.length === 0) throw new Error('name the runs: bench/ablation-table.ts <name> [<name> …]')
console.log(
  '| run | model | cells | G | groups | step on | lr | steps/round | KL | curriculum | tokens | rounds × seeds | arm | pass@1 start → end | change [95 %] | reward vs solo (per seed) | signal groups/step |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
for (const name of names) {
  const s = JSON.parse(readFileSync(`${results}${name}.json`, 'utf8')) as Summary
  const b = s.batch
  const model = basename(s.model.folder)
  for (const [arm, a] of Object.entries(s.arms)) {
    const p = a.passAt1
    const perSeed = a.rewardGainVsSoloPerSeed.map((g) => `${pts(g)}%`).join(', ')
    const { localGroups, externalGroups, pick } = a.config.sapo
    const stepOn =
      (externalGroups === 0 ? `${localGroups} own` : `${localGroups} own + ${externalGroups} heard`) +
      (pick === 'signal-by-cell' ? ', by cell' : '')
    const lr = b.lrMin === undefined ? `${b.lr}` : `${b.lr} → ${b.lrMin} (cosine)`
    console.log(
      `| ${name} | ${model} | ${learningCells(a.config).length} | ${b.groupSize} | ${b.groups} | ${stepOn} | ${lr} | ${b.epochs ?? 1} | ${b.klBeta} | ${b.curriculum ? 'on' : 'off'} | ` +
        `${a.config.sampling.maxNewTokens} | ` +
        `${s.rounds} × ${s.seeds.length} | ${arm} | ${fmt(p.start, 3)} → ${fmt(p.end, 3)} | ` +
        `${pts(p.change.change)} [${pts(p.change.ci95[0])}, ${pts(p.change.ci95[1])}] | ` +
        `${arm === 'solo' ? '—' : `${pts(a.rewardGainVsSolo)}% (${perSeed})`} | ` +
        `${fmt(a.informativeGroupsPerStep, 2)} of ${localGroups + externalGroups} |`,
    )
  }
}
