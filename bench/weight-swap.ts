// A weight swap in the solver, stage by stage: a training step's checkpoint becomes the ONNX decoder the
// solver samples from (decode the checkpoint, export the ONNX file, start an onnxruntime-web session
// and its decoder) — what SolverSession.swap does between two generate requests — for each shipped
// model, of this checkout and of an older one in the same process, swaps alternating so the machine's
// load falls on both alike.
//
//   node --import ./src/polyfills/register.js bench/weight-swap.ts --base /tmp/old [--swaps 15]
//
// --base is a checkout of an older commit whose imports resolve (e.g. `git worktree add /tmp/old
// <commit> && ln -s "$PWD/node_modules" /tmp/old/node_modules`). One wasm thread, Node's build of
// onnxruntime-web. Results: bench/results/weight-swap.json.
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import * as ort from 'onnxruntime-web'
import { writeCheckpoint } from '../src/compute/model/checkpoint.ts'
import { headDim, type ModelConfig } from '../src/compute/model/config.ts'
import { parseHfConfig } from '../src/compute/model/load/hf-config.ts'
import { initParams } from '../src/compute/model/params.ts'
import { fmt, percentile, positiveInt, printTable, writeResults, type Row } from './stats.ts'

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    swaps: { type: 'string', default: '15' },
    models: { type: 'string', default: 'tabswarm-micro,tabswarm-next' },
  },
})
if (!values.base || !existsSync(join(values.base, 'src/peer/solver/checkpoint-onnx.ts')))
  throw new Error('--base names a checkout of an older commit to compare against (one with src/peer/solver)')
const swaps = positiveInt(values.swaps!, 'swaps')
const root = fileURLToPath(new URL('../', import.meta.url))
const resultsFile = fileURLToPath(new URL('./results/weight-swap.json', import.meta.url))
ort.env.wasm.numThreads = 1

/** The three modules a swap runs through, from one checkout. */
async function swapOf(dir: string) {
  const from = (path: string) => import(pathToFileURL(resolve(dir, path)).href)
  const [{ onnxFromCheckpoint }, { createSession }, { ortDecoder }] = await Promise.all([
    from('src/peer/solver/checkpoint-onnx.ts'),
    from('src/peer/solver/ort-runtime.ts'),
    from('src/peer/solver/ort-decoder.ts'),
  ])
  return async (config: ModelConfig, checkpoint: Uint8Array) => {
    const t0 = performance.now()
    const built = onnxFromCheckpoint(config, checkpoint) as { onnx: Uint8Array }
    const t1 = performance.now()
    const session = await createSession(ort, 'wasm', built.onnx)
    ortDecoder(ort, session, {
      vocabSize: config.vocabSize,
      maxContext: config.maxSeqLen,
      kvHeads: config.kvHeads,
      headDim: headDim(config),
    })
    const t2 = performance.now()
    await session.release()
    return { onnxMs: t1 - t0, sessionMs: t2 - t1, totalMs: t2 - t0 }
  }
}

type Timing = Awaited<ReturnType<Awaited<ReturnType<typeof swapOf>>>>
const summary = (runs: readonly Timing[], key: keyof Timing) => {
  const xs = runs.map((r) => r[key])
  return { median: percentile(xs, 50), p10: percentile(xs, 10), p90: percentile(xs, 90) }
}

const builds = { current: await swapOf(root), base: await swapOf(values.base) }
const results: Record<string, unknown> = {}
const rows: Row[] = []
for (const model of values.models!.split(',')) {
  const { config } = parseHfConfig(readFileSync(join(root, 'public/models', model, 'config.json')))
  const checkpoints = Array.from({ length: swaps + 1 }, (_, i) =>
    writeCheckpoint(config, initParams(config, [i, 1])),
  )
  const runs: Record<keyof typeof builds, Timing[]> = { current: [], base: [] }
  // the first swap of each build warms the JIT and onnxruntime's wasm; it is not counted
  for (const [i, checkpoint] of checkpoints.entries())
    for (const build of i % 2 ? (['base', 'current'] as const) : (['current', 'base'] as const)) {
      const timing = await builds[build](config, checkpoint)
      if (i > 0) runs[build].push(timing)
    }
  const stages = (build: keyof typeof builds) => ({
    onnx: summary(runs[build], 'onnxMs'),
    session: summary(runs[build], 'sessionMs'),
    total: summary(runs[build], 'totalMs'),
    runs: runs[build],
  })
  results[model] = {
    checkpointBytes: checkpoints[0]!.length,
    current: stages('current'),
    base: stages('base'),
  }
  for (const [stage, key] of [
    ['checkpoint → ONNX', 'onnxMs'],
    ['ONNX → session + decoder', 'sessionMs'],
    ['whole swap', 'totalMs'],
  ] as const) {
    const now = summary(runs.current, key)
    const then = summary(runs.base, key)
    rows.push({
      metric: `${model}: ${stage} (ms, median [p10–p90])`,
      value: `${fmt(now.median)} [${fmt(now.p10)}–${fmt(now.p90)}]`,
      baseline: `${fmt(then.median)} [${fmt(then.p10)}–${fmt(then.p90)}]`,
      ratio: `${fmt(now.median / then.median, 2)}×`,
    })
  }
}
printTable(`weight swap, ${swaps} swaps per build and model, alternating (one wasm thread)`, rows)
await writeResults(resultsFile, { swaps, base: values.base, models: results })
