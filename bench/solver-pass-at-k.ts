// pass@1 and pass@8 of the shipped model per task family and difficulty, through the solver's own path:
// onnxruntime-web (Node build, wasm) running the shipped ONNX file, the batched KV-cached generation
// loop, 8 samples per task at the Solve view's default sampling, scored by the verifiers. pass@k uses
// the unbiased estimator (src/tasks/pass-at-k.ts); the greedy answer is the baseline beside it.
// Writes bench/results/solver-pass-at-k.json and prints a table.
//   node --import ./src/polyfills/register.js bench/solver-pass-at-k.ts [--tasks 100]
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { generate } from '../src/solver/generate.ts'
import { generateReasoningTask } from '../src/tasks/generate-reasoning-task.ts'
import { passAtK } from '../src/tasks/pass-at-k.ts'
import { REASONING_FAMILIES } from '../src/tasks/reasoning-families.ts'
import type { Difficulty } from '../src/tasks/task.ts'
import { verifyReasoning } from '../src/tasks/verify-reasoning.ts'
import { loadShippedSolver } from './shipped-solver.ts'
import { fmt, printTable, type Row } from './stats.ts'

const SAMPLES = 8
/** The Solve view's defaults (DEFAULT_SETTINGS in src/state/solver-store.ts). */
const SAMPLING = { temperature: 0.7, topK: 40, topP: 0.95, maxNewTokens: 64 }
/** Held-out seeds, disjoint from training (src/model/sft/sft-data.ts starts them at 1,000,000). */
const SEED_START = 1_000_000

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { tasks: { type: 'string', default: '100' } } })
  const perCell = Number(values.tasks)
  const { manifest, tokenizer, eos, decoder, decode } = await loadShippedSolver()
  const cells: {
    family: string
    difficulty: Difficulty
    tasks: number
    pass1: number
    pass8: number
    greedy: number
  }[] = []
  const started = performance.now()
  for (const family of REASONING_FAMILIES)
    for (const difficulty of [1, 2] as const) {
      let pass1 = 0
      let pass8 = 0
      let greedy = 0
      for (let i = 0; i < perCell; i++) {
        const task = generateReasoningTask(family.name, difficulty, SEED_START + i)
        const promptIds = tokenizer.encode(manifest.promptTemplate.replace('{prompt}', task.prompt))
        const request = { promptIds, eosIds: [eos], decode }
        const sampled = await generate(decoder, {
          ...request,
          samples: SAMPLES,
          sampling: { ...SAMPLING, seed: i },
        })
        const correct = sampled.completions.filter((c) => verifyReasoning(task, c.text).correct).length
        pass1 += passAtK(SAMPLES, correct, 1)
        pass8 += passAtK(SAMPLES, correct, SAMPLES)
        const best = await generate(decoder, {
          ...request,
          samples: 1,
          sampling: { temperature: 0, topK: 0, topP: 1, seed: 0, maxNewTokens: SAMPLING.maxNewTokens },
        })
        if (verifyReasoning(task, best.completions[0]!.text).correct) greedy++
      }
      cells.push({
        family: family.name,
        difficulty,
        tasks: perCell,
        pass1: pass1 / perCell,
        pass8: pass8 / perCell,
        greedy: greedy / perCell,
      })
      process.stderr.write(
        `${family.name} d${difficulty}: pass@1 ${fmt((100 * pass1) / perCell)}%, pass@8 ${fmt((100 * pass8) / perCell)}%\n`,
      )
    }
  const out = fileURLToPath(new URL('./results/solver-pass-at-k.json', import.meta.url))
  await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true })
  await writeFile(
    out,
    JSON.stringify(
      { samples: SAMPLES, sampling: SAMPLING, seconds: (performance.now() - started) / 1000, cells },
      null,
      2,
    ),
  )
  const rows: Row[] = cells.map((c) => ({
    metric: `${c.family} d${c.difficulty} (${c.tasks} tasks)`,
    value: `pass@1 ${fmt(100 * c.pass1)}%  pass@8 ${fmt(100 * c.pass8)}%`,
    baseline: `greedy ${fmt(100 * c.greedy)}%`,
    ratio: c.pass1 > 0 ? `×${fmt(c.pass8 / c.pass1, 2)}` : '—',
  }))
  printTable(
    `tabswarm-tiny through onnxruntime-web: ${SAMPLES} samples at T=${SAMPLING.temperature}, top-k ${SAMPLING.topK}, top-p ${SAMPLING.topP}`,
    rows,
  )
}

await main()
