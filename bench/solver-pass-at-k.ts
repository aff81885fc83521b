// pass@1 and pass@8 of a model folder (the shipped one by default) per task family and difficulty,
// through the solver's own path: onnxruntime-web (Node build, wasm) running the folder's ONNX file, the
// batched KV-cached generation loop, 8 samples per task, scored by the verifiers. pass@k uses the
// unbiased estimator (src/core/tasks/pass-at-k.ts); the greedy answer is the baseline beside it.
// --sampling solve: the Solve view's defaults; swarm: what the learning swarm samples its groups at
// (DEFAULT_LEARNING.sampling, with --max-new-tokens), i.e. the room RL has to sharpen. --set seeds: the
// held-out seeds from 1,000,000 (which repeat training prompts where a cell's space is small); reserved:
// the reserved prompts, held out by prompt text (src/core/tasks/held-out-set.ts), for a recipe that kept them out.
// Writes bench/results/<--name>.json (default solver-pass-at-k) and prints a table.
//   node --import ./src/polyfills/register.js bench/solver-pass-at-k.ts [--tasks 100] [--model DIR]
//     [--sampling solve|swarm] [--max-new-tokens 64] [--set seeds|reserved] [--difficulties 1,2] [--name N]
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { generate } from '../src/peer/solver/generate.ts'
import { DEFAULT_LEARNING } from '../src/core/learning/learning-config.ts'
import { generateReasoningTask } from '../src/core/tasks/generate-reasoning-task.ts'
import { heldOutCell } from '../src/core/tasks/held-out-set.ts'
import { answersBare } from '../src/core/tasks/answer-tag.ts'
import { passAtK } from '../src/core/tasks/pass-at-k.ts'
import { REASONING_FAMILIES } from '../src/core/tasks/reasoning-families.ts'
import type { Difficulty, ReasoningTask } from '../src/core/tasks/task.ts'
import { verifyReasoning } from '../src/core/tasks/verify-reasoning.ts'
import { loadShippedSolver } from './shipped-solver.ts'
import { fmt, printTable, type Row } from './stats.ts'

const SAMPLES = 8
/** The Solve view's defaults (DEFAULT_SETTINGS in src/host/stores/solver-store.ts). */
const SOLVE_SAMPLING = { temperature: 0.7, topK: 40, topP: 0.95, maxNewTokens: 64 }
/** Held-out seeds, disjoint from training (src/compute/model/sft/sft-data.ts starts them at 1,000,000). */
const SEED_START = 1_000_000

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tasks: { type: 'string', default: '100' },
      model: { type: 'string' },
      sampling: { type: 'string', default: 'solve' },
      'max-new-tokens': { type: 'string', default: '64' },
      set: { type: 'string', default: 'seeds' },
      difficulties: { type: 'string', default: '1,2' },
      name: { type: 'string', default: 'solver-pass-at-k' },
    },
  })
  const perCell = Number(values.tasks)
  const maxNewTokens = Number(values['max-new-tokens'])
  if (values.sampling !== 'solve' && values.sampling !== 'swarm')
    throw new Error('--sampling is solve or swarm')
  if (values.set !== 'seeds' && values.set !== 'reserved') throw new Error('--set is seeds or reserved')
  const SAMPLING =
    values.sampling === 'solve'
      ? { ...SOLVE_SAMPLING, maxNewTokens }
      : { ...DEFAULT_LEARNING.sampling, maxNewTokens }
  const difficulties = values.difficulties.split(',').map(Number) as Difficulty[]
  const tasksOf = (family: string, difficulty: Difficulty): ReasoningTask[] =>
    values.set === 'reserved'
      ? [...heldOutCell(family, difficulty, perCell).tasks]
      : Array.from({ length: perCell }, (_, i) => generateReasoningTask(family, difficulty, SEED_START + i))
  const { manifest, tokenizer, eos, decoder, decode } = await loadShippedSolver(values.model)
  const cells: {
    family: string
    difficulty: Difficulty
    tasks: number
    pass1: number
    pass8: number
    greedy: number
    /** share of the samples (and of the greedy answers) that answer bare, with no working first */
    bare: number
    greedyBare: number
    /** success rate of the bare samples and of those with a working (undefined: none of that kind) */
    bareCorrect?: number
    workedCorrect?: number
  }[] = []
  const started = performance.now()
  for (const family of REASONING_FAMILIES)
    for (const difficulty of difficulties) {
      let pass1 = 0
      let pass8 = 0
      let greedy = 0
      let greedyBare = 0
      // [bare, worked] × [samples, correct]
      const kinds: Record<'bare' | 'worked', [number, number]> = { bare: [0, 0], worked: [0, 0] }
      const tasks = tasksOf(family.name, difficulty)
      for (const [i, task] of tasks.entries()) {
        const promptIds = tokenizer.encode(manifest.promptTemplate.replace('{prompt}', task.prompt))
        const request = { promptIds, eosIds: [eos], decode }
        const sampled = await generate(decoder, {
          ...request,
          samples: SAMPLES,
          sampling: { ...SAMPLING, seed: i },
        })
        let correct = 0
        for (const c of sampled.completions) {
          const right = verifyReasoning(task, c.text).correct
          const kind = kinds[answersBare(c.text) ? 'bare' : 'worked']
          kind[0]++
          if (!right) continue
          correct++
          kind[1]++
        }
        pass1 += passAtK(SAMPLES, correct, 1)
        pass8 += passAtK(SAMPLES, correct, SAMPLES)
        const best = await generate(decoder, {
          ...request,
          samples: 1,
          sampling: { temperature: 0, topK: 0, topP: 1, seed: 0, maxNewTokens: SAMPLING.maxNewTokens },
        })
        if (verifyReasoning(task, best.completions[0]!.text).correct) greedy++
        if (answersBare(best.completions[0]!.text)) greedyBare++
      }
      cells.push({
        family: family.name,
        difficulty,
        tasks: tasks.length,
        pass1: pass1 / tasks.length,
        pass8: pass8 / tasks.length,
        greedy: greedy / tasks.length,
        bare: kinds.bare[0] / (kinds.bare[0] + kinds.worked[0]),
        greedyBare: greedyBare / tasks.length,
        ...(kinds.bare[0] > 0 ? { bareCorrect: kinds.bare[1] / kinds.bare[0] } : {}),
        ...(kinds.worked[0] > 0 ? { workedCorrect: kinds.worked[1] / kinds.worked[0] } : {}),
      })
      process.stderr.write(
        `${family.name} d${difficulty}: pass@1 ${fmt((100 * pass1) / tasks.length)}%, pass@8 ${fmt((100 * pass8) / tasks.length)}%\n`,
      )
    }
  const out = fileURLToPath(new URL(`./results/${values.name}.json`, import.meta.url))
  await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true })
  await writeFile(
    out,
    JSON.stringify(
      {
        model: values.model ?? 'public/models/tabswarm-tiny',
        weightsHash: manifest.weightsHash,
        set: values.set,
        samples: SAMPLES,
        sampling: SAMPLING,
        seconds: (performance.now() - started) / 1000,
        cells,
        mix: mixOf(cells),
      },
      null,
      2,
    ),
  )
  const percent = (x: number | undefined) => (x === undefined ? '—' : `${fmt(100 * x)}%`)
  const rows: Row[] = cells.map((c) => ({
    metric: `${c.family} d${c.difficulty} (${c.tasks} tasks)`,
    // how the samples answer: bare (the tagged answer first) or with a working, and how often each is right
    value:
      `pass@1 ${fmt(100 * c.pass1)}%  pass@8 ${fmt(100 * c.pass8)}%  bare ${percent(c.bare)}` +
      ` (right ${percent(c.bareCorrect)}; worked ${percent(c.workedCorrect)})`,
    baseline: `greedy ${fmt(100 * c.greedy)}% (bare ${percent(c.greedyBare)})`,
    ratio: c.pass1 > 0 ? `×${fmt(c.pass8 / c.pass1, 2)}` : '—',
  }))
  const mix = mixOf(cells)
  rows.push({
    metric: `mix (${cells.length} cells, uniform)`,
    value: `pass@1 ${fmt(100 * mix.pass1)}%  pass@8 ${fmt(100 * mix.pass8)}%`,
    baseline: `greedy ${fmt(100 * mix.greedy)}%`,
    ratio: `${fmt(100 * (mix.pass8 - mix.pass1))} points`,
  })
  printTable(
    `${values.model ?? 'tabswarm-tiny'} (${values.set}) through onnxruntime-web: ${SAMPLES} samples at T=${SAMPLING.temperature}, top-k ${SAMPLING.topK}, top-p ${SAMPLING.topP}`,
    rows,
  )
}

/** The uniform mix over cells: each family × difficulty weighs alike, as the swarm's draw does. */
function mixOf(cells: { pass1: number; pass8: number; greedy: number }[]) {
  const mean = (f: (c: (typeof cells)[number]) => number) =>
    cells.reduce((a, c) => a + f(c), 0) / cells.length
  return { pass1: mean((c) => c.pass1), pass8: mean((c) => c.pass8), greedy: mean((c) => c.greedy) }
}

await main()
