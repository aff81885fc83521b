// The solver-speed bench's printed table and JSON file, whichever runtime ran the bench page's code
// (Chromium in bench/solver-speed.ts, Node Dawn in bench/gpu-node/main.ts). Sets a failing exit code
// when the WGSL forward drew other tokens than the TS integer twin.
import { generateReasoningTask } from '../src/core/tasks/generate-reasoning-task.ts'
import type { PathResult, SpeedOptions, SpeedRun } from './solver-speed-page/main.ts'
import { WGSL_PATH } from './solver-speed-page/path-names.ts'
import { fmt, percentile, printTable, writeResults, type Row } from './stats.ts'

const median = (xs: readonly number[]) => percentile(xs, 50)

/** new tokens per generation: the model's context (128) minus a task prompt leaves room for this */
const NEW_TOKENS = 32
const RUNS = 3
/** a path whose warm-up generation takes longer is timed once */
const SLOW_RUN_MS = 30_000

/** What the bench asks of the page: one arithmetic prompt, 32 greedy tokens, three timed runs a path. */
export const speedOptions = (modelUrl: string): SpeedOptions => ({
  modelUrl,
  prompt: generateReasoningTask('arithmetic', 1, 1).prompt,
  newTokens: NEW_TOKENS,
  runs: RUNS,
  slowRunMs: SLOW_RUN_MS,
})

export async function reportSolverSpeed(
  run: SpeedRun,
  model: string,
  out: string,
  runtime: string,
  note: string,
): Promise<void> {
  const wasm = run.paths.find((p) => p.path === 'onnxruntime-web wasm')
  const base = wasm?.ok ? median(wasm.tokensPerSecond) : Number.NaN
  const rowOf = (p: PathResult): Row =>
    p.ok
      ? {
          metric: `${p.path} tokens/s`,
          value: fmt(median(p.tokensPerSecond)),
          baseline: `${fmt(base)} (wasm)`,
          ratio: fmt(median(p.tokensPerSecond) / base, 3),
        }
      : { metric: `${p.path} tokens/s`, value: 'cannot run', baseline: p.reason.slice(0, 60), ratio: '—' }
  const rows: Row[] = [
    ...run.paths.map(rowOf),
    {
      metric: 'first token after page load (wasm) ms',
      value: fmt(run.firstTokenAfterPageLoadMs ?? Number.NaN, 0),
      baseline: '—',
      ratio: '—',
    },
  ]
  printTable(
    `solver speed (${runtime}): ${model}, ${run.promptTokens}-token prompt + ${run.newTokens} greedy tokens, batch 1; ` +
      `WebGPU adapter: ${run.adapter}; cross-origin isolated: ${run.crossOriginIsolated} (wasm threads: ${run.crossOriginIsolated ? 'several' : '1'})`,
    rows,
  )
  const wgsl = run.paths.find((p) => p.path === WGSL_PATH)
  console.log(
    `${WGSL_PATH}: adapter ${wgsl?.ok ? wgsl.adapter : '—'}; sameTokensAsTwin: ${run.sameTokensAsTwin ?? '— (a path did not run)'}`,
  )
  await writeResults(out, {
    runtime,
    model,
    note,
    ...run,
    ratiosToWasm: Object.fromEntries(
      run.paths.filter((p) => p.ok).map((p) => [p.path, median(p.tokensPerSecond) / base]),
    ),
  })
  if (run.sameTokensAsTwin === false) {
    console.error(
      `${WGSL_PATH} generated other tokens than the TS integer twin from the same program: a WGSL kernel ` +
        `breaks the twin's bits (run e2e/kernels.spec.ts to find which); both token lists are in ${out}`,
    )
    process.exitCode = 1
  }
}
