// The headline benchmark (issue 19 §4): do peers that share rollouts learn faster than peers that do
// not? Four peers from the same model, the same rollouts per training step in every arm: sharing (SAPO,
// half own + half heard groups, drawn uniformly as RL Swarm does or those with a signal first) against
// isolated (all own groups). Same seeds and task draws: each seed's solo run picks its peers' cells by
// their curricula and logs the choices, and the other arms replay them, so every arm draws the same tasks
// per peer and round. GRPO on the reproducible kernels (TS twin). Each (arm, seed) runs in a child
// process, two at a time, and is saved as it finishes (--resume keeps finished ones: a long run can span
// sessions). The batch defaults to the tab's default recipe (DEFAULT_LEARNING).
// Writes bench/results/<name>.json and .png and prints a table.
//   node --import ./src/polyfills/register.js bench/swarm-vs-solo.ts [--rounds 100] [--seeds 3] [--seed-start 0]
//     [--eval-every 20] [--group-size G] [--groups N] [--lr X] [--lr-min X] [--epochs E] [--kl β] [--curriculum on|off]
//     [--heard half|all] [--pick signal|signal-by-cell]
//     [--max-new-tokens T] [--families a,b] [--difficulties min-max]
//     [--model DIR] [--parallel 2]
//     [--arms swarm,swarm-signal,solo] [--name swarm-vs-solo] [--replay NAME] [--resume]
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { launchBrowser } from '../e2e/browser.ts'
import { scoreReservedCells, type ReservedCellScore } from '../src/compute/model/sft/held-out-eval.ts'
import {
  DEFAULT_LEARNING,
  parseLearningConfig,
  type LearningConfig,
} from '../src/core/learning/learning-config.ts'
import { taskFamilyExists } from '../src/core/protocol/task-ref.ts'
import { HELD_OUT_PER_CELL } from '../src/core/tasks/held-out-set.ts'
import { poolCellScores, stratifiedChange, stratifiedInterval } from '../src/core/tasks/pass-interval.ts'
import type { Difficulty } from '../src/core/tasks/task.ts'
import { fmt, positiveInt, printTable, type Row } from './stats.ts'
import {
  ARMS,
  evalDifficulties,
  evalFamilies,
  heldOutModel,
  learningFor,
  loadBenchModel,
  PEERS,
  type Arm,
  type ArmResult,
  type ArmSpec,
  type BenchModel,
} from './swarm-vs-solo-arms.ts'

const results = fileURLToPath(new URL('./results/', import.meta.url))
const runner = fileURLToPath(new URL('./swarm-vs-solo-run.ts', import.meta.url))

function runArm(spec: ArmSpec): Promise<ArmResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', './src/polyfills/register.js', runner, JSON.stringify(spec)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as ArmResult)
        : reject(new Error(`${spec.arm} seed ${spec.seed} exited with ${code}`)),
    )
  })
}

async function pool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length)
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++
        out[i] = await jobs[i]!()
      }
    }),
  )
  return out
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const std = (xs: readonly number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)))
/** Per round: the mean over an arm's peers. */
const peerMean = (rows: number[][]) => rows.map(mean)
const cumulative = (xs: readonly number[]) =>
  xs.reduce<number[]>((acc, x) => [...acc, (acc.at(-1) ?? 0) + x], [])

/** Line colours of the arms in the plot. */
const COLOUR: Record<Arm, string> = { swarm: '#2563eb', 'swarm-signal': '#16a34a', solo: '#9ca3af' }

/** A two-panel SVG: mean reward per round and pass@1 per evaluation, one line per arm (mean over seeds). */
function plot(byArm: Partial<Record<Arm, ArmResult[]>>, startPass: number): string {
  const W = 900
  const H = 340
  const arms = (Object.keys(byArm) as Arm[]).filter((arm) => byArm[arm]!.length > 0)
  const panel = (
    x0: number,
    title: string,
    series: Partial<Record<Arm, number[]>>,
    xs: number[],
    yMin: number,
    yMax: number,
  ) => {
    const pw = 380
    const ph = 240
    const sx = (x: number) => x0 + 50 + ((x - xs[0]!) / Math.max(1, xs.at(-1)! - xs[0]!)) * pw
    const sy = (y: number) => 50 + ph - ((y - yMin) / (yMax - yMin || 1)) * ph
    const lines = arms.map(
      (arm, i) =>
        `<polyline fill="none" stroke="${COLOUR[arm]}" stroke-width="2.5" points="${series[arm]!.map(
          (y, j) => `${sx(xs[j]!).toFixed(1)},${sy(y).toFixed(1)}`,
        ).join(
          ' ',
        )}"/><text x="${x0 + 60}" y="${70 + 18 * i}" fill="${COLOUR[arm]}" font-size="13">${arm}</text>`,
    )
    return `<text x="${x0 + 50}" y="32" font-size="15" font-weight="600">${title}</text>
<rect x="${x0 + 50}" y="50" width="${pw}" height="${ph}" fill="none" stroke="#ddd"/>
<text x="${x0 + 44}" y="${sy(yMax) + 4}" font-size="11" text-anchor="end">${yMax.toFixed(3)}</text>
<text x="${x0 + 44}" y="${sy(yMin) + 4}" font-size="11" text-anchor="end">${yMin.toFixed(3)}</text>
<text x="${sx(xs[0]!)}" y="${50 + ph + 14}" font-size="11" text-anchor="middle">${xs[0]}</text>
<text x="${sx(xs.at(-1)!)}" y="${50 + ph + 14}" font-size="11" text-anchor="middle">${xs.at(-1)}</text>
<text x="${x0 + 50 + pw / 2}" y="${50 + ph + 28}" font-size="11" text-anchor="middle">round</text>${lines.join('')}`
  }
  const first = byArm[arms[0]!]![0]!
  const rounds = first.reward.length
  // the reward panel is smoothed over 5 rounds: single rounds of 4 groups are mostly noise
  const reward = (arm: Arm) => {
    const raw = Array.from({ length: rounds }, (_, r) => mean(byArm[arm]!.map((res) => mean(res.reward[r]!))))
    return raw.map((_, r) => mean(raw.slice(Math.max(0, r - 4), r + 1)))
  }
  // every arm starts from the same weights, scored once by the driver
  const evalRounds = [0, ...first.evals.map((e) => e.round)]
  const pass = (arm: Arm) => [
    startPass,
    ...first.evals.map((_, e) => mean(byArm[arm]!.map((res) => res.evals[e]!.pass))),
  ]
  const rewardSeries = Object.fromEntries(arms.map((arm) => [arm, reward(arm)]))
  const passSeries = Object.fromEntries(arms.map((arm) => [arm, pass(arm)]))
  const all = Object.values(rewardSeries).flat()
  const allPass = Object.values(passSeries).flat()
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif"><rect width="${W}" height="${H}" fill="white"/>
${panel(
  0,
  'mean reward per round (5-round mean)',
  rewardSeries,
  Array.from({ length: rounds }, (_, r) => r + 1),
  Math.min(...all),
  Math.max(...all),
)}
${panel(450, 'held-out pass@1', passSeries, evalRounds, Math.min(...allPass), Math.max(...allPass))}</svg>`
}

async function toPng(svg: string, file: string): Promise<void> {
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 340 } })
    await page.setContent(`<body style="margin:0">${svg}</body>`)
    await page.screenshot({ path: file })
  } finally {
    await browser.close()
  }
}

/** The start's full-set evaluation, kept so a resumed or repeated run of the same model skips it. */
interface StartEval {
  weightsHash: string
  difficulties: number[]
  cells: ReservedCellScore[]
}

/**
 * The starting model's score on the full reserved set of the families drawn, kept in `file`: a kept
 * score of the same weights and difficulties is reused, cut down to `families` when it covers more.
 */
function startEval(
  model: BenchModel,
  families: string[],
  difficulties: Difficulty[],
  file: string,
): StartEval {
  const weightsHash = model.manifest.weightsHash
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as StartEval
    const cells = families.flatMap((f) => kept.cells.filter((c) => c.family === f))
    if (
      kept.weightsHash === weightsHash &&
      kept.difficulties.join() === difficulties.join() &&
      cells.length === families.length * difficulties.length
    )
      return { ...kept, cells }
  }
  process.stderr.write(
    `scoring the starting model on the full reserved set (${families.join(', ')} at ${difficulties.join(', ')})…\n`,
  )
  const cells = scoreReservedCells(heldOutModel(model, model.params), difficulties, HELD_OUT_PER_CELL, {
    families,
  })
  const kept = { weightsHash, difficulties, cells }
  writeFileSync(file, JSON.stringify(kept))
  return kept
}

/** `--difficulties 2-3` (or `2`): the draw's difficulty range; parseLearningConfig checks its bounds. */
function difficultyRange(text: string): LearningConfig['difficulties'] {
  const [min, max = min] = text.split('-').map(Number)
  if (!Number.isInteger(min) || !Number.isInteger(max))
    throw new Error(`--difficulties takes min-max, e.g. 2-2 (got "${text}")`)
  return { min, max } as LearningConfig['difficulties']
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '100' },
      seeds: { type: 'string', default: '3' },
      // seeds are numbered seed-start … seed-start + seeds − 1: a reviewer can run fresh ones
      'seed-start': { type: 'string', default: '0' },
      'eval-every': { type: 'string', default: '20' },
      // the batch: the tab's default recipe unless told otherwise
      'group-size': { type: 'string', default: String(DEFAULT_LEARNING.groupSize) },
      groups: { type: 'string', default: String(DEFAULT_LEARNING.tasksPerRound) },
      lr: { type: 'string', default: String(DEFAULT_LEARNING.grpo.lr) },
      // the lr's cosine decay from --lr to this over the run's rounds (headless only; absent: --lr throughout)
      'lr-min': { type: 'string' },
      // optimizer steps a round on the round's batch (1: the tab's on-policy step)
      epochs: { type: 'string', default: '1' },
      // KL penalty to the starting model (0: none)
      kl: { type: 'string', default: String(DEFAULT_LEARNING.grpo.klBeta ?? 0) },
      // off: the free slots are filled uniformly instead of by each peer's curriculum
      curriculum: { type: 'string', default: 'on' },
      // all: a sharing arm's step takes every own group and as many heard (half: half of each)
      heard: { type: 'string', default: 'half' },
      // signal-by-cell: the swarm-signal arm picks signal first within each cell's share of its own draw
      pick: { type: 'string', default: 'signal' },
      'max-new-tokens': { type: 'string', default: String(DEFAULT_LEARNING.sampling.maxNewTokens) },
      // the families drawn (comma-separated; default every family the tab draws): a run on the cells
      // with room to learn shows whether the step can move the model at all
      families: { type: 'string' },
      // the difficulties drawn, as min-max (default the tab's): a run on the cells with room alone
      difficulties: { type: 'string' },
      // the tab's model folder, as the app serves it from public/
      model: { type: 'string', default: `public${DEFAULT_LEARNING.model}` },
      // (arm, seed) runs at once: one per core by default
      parallel: { type: 'string', default: '2' },
      arms: { type: 'string', default: ARMS.join(',') },
      // results files name: an ablation keeps its own
      name: { type: 'string', default: 'swarm-vs-solo' },
      // every arm, solo included, replays run NAME's solo choices (NAME-solo-<seed>.json): runs of two
      // recipes draw the same tasks, and the sharing arms need not wait for this run's solo
      replay: { type: 'string' },
      // keep finished (arm, seed) runs of the same spec and model instead of running them again
      resume: { type: 'boolean', default: false },
    },
  })
  const rounds = positiveInt(values.rounds, 'rounds')
  const seeds = positiveInt(values.seeds, 'seeds')
  const seedStart = Number(values['seed-start'])
  if (!Number.isInteger(seedStart) || seedStart < 0) throw new Error('--seed-start must be an integer ≥ 0')
  const evalEvery = positiveInt(values['eval-every'], 'eval-every')
  const batch = {
    groupSize: positiveInt(values['group-size'], 'group-size'),
    groups: positiveInt(values.groups, 'groups'),
    lr: Number(values.lr),
    klBeta: Number(values.kl),
    curriculum: values.curriculum === 'on',
    maxNewTokens: positiveInt(values['max-new-tokens'], 'max-new-tokens'),
    epochs: positiveInt(values.epochs, 'epochs'),
    ...(values.heard === 'all' ? { heard: 'all' as const } : {}),
    ...(values.pick === 'signal-by-cell' ? { pick: 'signal-by-cell' as const } : {}),
    ...(values['lr-min'] === undefined ? {} : { lrMin: Number(values['lr-min']) }),
  }
  if (values.heard !== 'half' && values.heard !== 'all') throw new Error('--heard is half or all')
  if (values.pick !== 'signal' && values.pick !== 'signal-by-cell')
    throw new Error('--pick is signal or signal-by-cell')
  if (!(batch.lr > 0)) throw new Error('--lr must be a positive number')
  if (batch.lrMin !== undefined && !(batch.lrMin > 0 && batch.lrMin <= batch.lr))
    throw new Error('--lr-min must be a positive number no larger than --lr')
  if (!(batch.klBeta >= 0 && batch.klBeta <= 1)) throw new Error('--kl must be a number in 0–1')
  if (values.curriculum !== 'on' && values.curriculum !== 'off') throw new Error('--curriculum is on or off')
  const arms = values.arms.split(',') as Arm[]
  const unknown = arms.filter((arm) => !ARMS.includes(arm))
  if (unknown.length > 0 || !arms.includes('solo'))
    throw new Error(
      `--arms lists arms of ${ARMS.join(', ')}, solo included (the baseline); got ${values.arms}`,
    )
  const base: LearningConfig = {
    ...DEFAULT_LEARNING,
    ...(values.families === undefined
      ? {}
      : { sources: values.families.split(',').map((family) => ({ kind: 'reasoning' as const, family })) }),
    ...(values.difficulties === undefined ? {} : { difficulties: difficultyRange(values.difficulties) }),
  }
  const configs = Object.fromEntries(
    arms.map((arm) => [arm, parseLearningConfig(learningFor(arm, base, batch), taskFamilyExists)]),
  ) as Record<Arm, LearningConfig>
  const model = loadBenchModel(values.model)
  await mkdir(results, { recursive: true })
  const difficulties = evalDifficulties(configs.solo)
  const start = startEval(
    model,
    evalFamilies(configs.solo),
    difficulties,
    `${results}${values.name}-start.json`,
  )
  const startMix = stratifiedInterval(start.cells)

  // each arm's result is kept as it lands, so a long run that is cut short still leaves its finished arms
  // (and --resume picks them up); the solo runs go first, since every other arm of a seed replays its
  // solo run's curriculum choices (with --replay, every arm replays the named run's and none waits)
  const file = (arm: Arm, seed: number, name = values.name) => `${results}${name}-${arm}-${seed}.json`
  const replayed = (seed: number) => values.replay && file('solo', seed, values.replay)
  const seedList = Array.from({ length: seeds }, (_, i) => seedStart + i)
  for (const seed of seedList) {
    const from = replayed(seed)
    if (!from) continue
    const replayRounds =
      existsSync(from) && (JSON.parse(readFileSync(from, 'utf8')) as ArmResult).choices.length
    if (!replayRounds || replayRounds < rounds)
      throw new Error(`--replay ${values.replay}: ${from} does not hold ${rounds} rounds of choices`)
  }
  const launched: { arm: Arm; seed: number; file: string; resumed: boolean }[] = []
  const soloDone = new Map<number, Promise<void>>()
  const job = (arm: Arm, seed: number) => async () => {
    if (arm !== 'solo' && !values.replay) await soloDone.get(seed)
    // the named run's draw, or (sharing arms) this seed's solo run's
    const replay = replayed(seed) || (arm === 'solo' ? undefined : file('solo', seed))
    const spec: ArmSpec = {
      arm,
      seed,
      rounds,
      evalEvery,
      model: values.model,
      learning: configs[arm],
      curriculum: batch.curriculum,
      ...(replay ? { replay } : {}),
      ...(batch.epochs === 1 ? {} : { epochs: batch.epochs }),
      ...(batch.lrMin === undefined
        ? {}
        : { lrSchedule: { kind: 'cosine' as const, minLr: batch.lrMin, steps: rounds } }),
    }
    if (values.resume && existsSync(file(arm, seed))) {
      const kept = JSON.parse(readFileSync(file(arm, seed), 'utf8')) as ArmResult
      if (JSON.stringify(kept.spec) === JSON.stringify(spec) && kept.weightsHash === start.weightsHash) {
        launched.push({ arm, seed, file: file(arm, seed), resumed: true })
        return kept
      }
    }
    launched.push({ arm, seed, file: file(arm, seed), resumed: false })
    const result = await runArm(spec)
    await writeFile(file(arm, seed), JSON.stringify(result))
    return result
  }
  const jobs = [
    ...seedList.map((seed) => {
      const run = job('solo', seed)
      let finish!: () => void
      soloDone.set(seed, new Promise((r) => (finish = r)))
      return async () => run().finally(finish)
    }),
    ...seedList.flatMap((seed) => arms.filter((arm) => arm !== 'solo').map((arm) => job(arm, seed))),
  ]
  const done = await pool(jobs, Number(values.parallel))
  const byArm = Object.fromEntries(
    arms.map((arm) => [arm, done.filter((r) => r.spec.arm === arm)]),
  ) as Partial<Record<Arm, ArmResult[]>>
  const runs = (arm: Arm) => byArm[arm]!
  const cum = (arm: Arm) => runs(arm).map((r) => cumulative(peerMean(r.reward)).at(-1)!)
  // the end over every seed: the seeds' pooled cells (each seed's peers split the full set once)
  const endCells = (arm: Arm) => poolCellScores(runs(arm).map((r) => r.endCells))
  // groups per step that carry a signal, over every round and peer
  const informative = (arm: Arm) => mean(runs(arm).flatMap((r) => r.informative.flat()))
  // the gain per seed: the same seed draws the same tasks for every arm
  const gains = (arm: Arm) => cum(arm).map((c, i) => c - cum('solo')[i]!)
  const relative = (arm: Arm) => mean(gains(arm)) / Math.abs(mean(cum('solo')))
  const perArm = Object.fromEntries(
    arms.map((arm) => {
      const end = stratifiedInterval(endCells(arm))
      return [
        arm,
        {
          config: configs[arm],
          passAt1: {
            start: startMix.pass,
            end: end.pass,
            ci95: end.ci95,
            perSeed: runs(arm).map((r) => r.evals.at(-1)!.pass),
            change: stratifiedChange(start.cells, endCells(arm)),
            formatFailures: { start: startMix.formatFailures, end: end.formatFailures },
          },
          curve: runs(arm).map((r) => r.evals),
          cumulativeReward: cum(arm),
          rewardGainVsSolo: relative(arm),
          rewardGainVsSoloPerSeed: cum(arm).map((c, i) => c / cum('solo')[i]! - 1),
          gainOverSolo: { perSeed: gains(arm), mean: mean(gains(arm)), std: std(gains(arm)) },
          informativeGroupsPerStep: informative(arm),
        },
      ]
    }),
  )
  const summary = {
    bench: 'swarm-vs-solo',
    date: new Date().toISOString(),
    seeds: seedList,
    rounds,
    peers: PEERS,
    evalEvery,
    model: { folder: values.model, weightsHash: start.weightsHash },
    batch: { ...batch, rolloutsPerStep: batch.groups * batch.groupSize },
    start: { ...startMix, difficulties },
    arms: perArm,
    launched,
    seconds: done.map((r) => ({ arm: r.spec.arm, seed: r.spec.seed, seconds: r.seconds })),
    runs: done,
  }
  await writeFile(`${results}${values.name}.json`, JSON.stringify(summary, null, 2))
  await toPng(plot(byArm, startMix.pass), `${results}${values.name}.png`)
  const pts = (x: number) => `${x >= 0 ? '+' : ''}${fmt(100 * x, 1)}`
  const pct = (x: number) => `${pts(x)}%`
  const rows: Row[] = arms.flatMap((arm) => {
    const p = perArm[arm]!.passAt1
    return [
      {
        metric: `${arm}: cumulative reward over ${rounds} rounds (± std over ${seeds} seeds)`,
        value: `${fmt(mean(cum(arm)), 2)} ± ${fmt(std(cum(arm)), 2)}`,
        baseline: `${fmt(mean(cum('solo')), 2)} ± ${fmt(std(cum('solo')), 2)}`,
        ratio: `${pct(relative(arm))} (gain ${fmt(mean(gains(arm)), 2)} ± ${fmt(std(gains(arm)), 2)})`,
      },
      {
        metric: `${arm}: held-out pass@1 start → end [95 % interval]; change [95 %]; no answer start → end`,
        value:
          `${fmt(p.start, 3)} → ${fmt(p.end, 3)} [${fmt(p.ci95[0], 3)}, ${fmt(p.ci95[1], 3)}]; ` +
          `${pts(p.change.change)} [${pts(p.change.ci95[0])}, ${pts(p.change.ci95[1])}] points; ` +
          `${fmt(p.formatFailures.start, 3)} → ${fmt(p.formatFailures.end, 3)}`,
        baseline: fmt(perArm.solo!.passAt1.end, 3),
        ratio: `${fmt(informative(arm), 2)} of ${configs[arm].sapo.localGroups + configs[arm].sapo.externalGroups} groups/step with a signal`,
      },
    ]
  })
  printTable(
    `sharing vs solo: ${PEERS} peers, ${batch.groups} groups of G = ${batch.groupSize} per step, lr ${batch.lr}, KL ${batch.klBeta}, curriculum ${values.curriculum}`,
    rows,
  )
}

await main()
