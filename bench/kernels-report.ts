// The kernels bench's printed table and JSON file, whichever runtime ran the bench page's code
// (Chromium in bench/kernels.ts, Node Dawn in bench/gpu-node/main.ts).
import type { BenchOptions, KernelBenchRun, OpResult, Timing } from './kernels-page/protocol.ts'
import { fmt, printTable, writeResults, type Row } from './stats.ts'

const msOf = (t: Timing) => ('ms' in t ? t.ms : Number.NaN)
const cell = (t: Timing) => ('ms' in t ? `${fmt(t.ms, 3)} (R=${t.repeats})` : 'skipped')

function rowsOf(r: OpResult): Row[] {
  const [repro, fast, twin] = [msOf(r.repro), msOf(r.fast), msOf(r.twin)]
  const name = `${r.op} ${r.size}`
  return [
    {
      metric: `${name} repro WGSL ms`,
      value: cell(r.repro),
      baseline: `${cell(r.fast)} fast`,
      ratio: fmt(repro / fast, 2),
    },
    {
      metric: `${name} TS twin ms`,
      value: cell(r.twin),
      baseline: `${fmt(repro, 3)} repro`,
      ratio: fmt(twin / repro, 2),
    },
  ]
}

/** Whether the adapter is a real GPU rather than a CPU implementation of WebGPU (SwiftShader). */
export const onGpu = (run: Pick<KernelBenchRun, 'adapter' | 'isFallbackAdapter'>): boolean =>
  !run.isFallbackAdapter && !/swiftshader/i.test(run.adapter)

/** Prints the table and writes `out`; `runtime` says what ran the page code (for the title and file). */
export async function reportKernels(
  run: KernelBenchRun,
  options: BenchOptions,
  out: string,
  runtime: string,
): Promise<void> {
  printTable(
    `kernels (${runtime}): ms per call, device-resident GPU paths (R dispatches per submit); ratio = repro/fast, ` +
      `then twin/repro. WebGPU adapter: ${run.adapter}${onGpu(run) ? '' : ' (CPU: SwiftShader)'}`,
    run.results.flatMap(rowsOf),
  )
  if (run.errors.length > 0) console.log(`\nWebGPU errors: ${run.errors.join(' | ')}`)
  await writeResults(out, {
    runtime,
    note:
      'ms per call; GPU paths device-resident: inputs uploaded once, the op’s dispatches repeated R times in ' +
      'one command buffer and submit, timed to onSubmittedWorkDone, nothing subtracted; the reproducible ' +
      'ops replay the dispatches of one host call (its uploads, read-backs and host steps excluded). ' +
      'TS twin on the same JS thread.',
    options,
    ...run,
    ratios: run.results.map((r) => ({
      op: r.op,
      size: r.size,
      reproOverFast: msOf(r.repro) / msOf(r.fast),
      twinOverRepro: msOf(r.twin) / msOf(r.repro),
    })),
  })
}
