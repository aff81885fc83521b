/// <reference types="@webgpu/types" />
// A bench page (built by bench/kernels.ts, not part of the app): times matmul, softmax and attention
// three ways in this one tab — the reproducible integer WGSL kernels, the fast f32 WGSL kernels and the
// TS twin — on the same values. Both GPU paths run device-resident: inputs uploaded once, the op's
// dispatches repeated R times in one command buffer and one submit, then onSubmittedWorkDone; the
// reproducible hosts' dispatches are recorded from one ordinary host call (record-dispatches.ts).
import { createAttentionKernel } from '../../src/compute/kernels/gpu/attention-kernel.ts'
import { SHADER_NAMES, type Shaders } from '../../src/compute/kernels/gpu/dispatch.ts'
import { createMatmulKernel } from '../../src/compute/kernels/gpu/matmul-kernel.ts'
import { createSoftmaxKernel } from '../../src/compute/kernels/gpu/softmax-kernel.ts'
import { createFastAttention } from '../../src/compute/kernels/fast/fast-attention.ts'
import { createFastMatmul } from '../../src/compute/kernels/fast/fast-matmul.ts'
import { FAST_SHADER_NAMES, type FastShaders } from '../../src/compute/kernels/fast/fast-shaders.ts'
import { createFastSoftmax } from '../../src/compute/kernels/fast/fast-softmax.ts'
import { bindOwning, runResident, type ResidentOp } from '../../src/compute/kernels/fast/resident.ts'
import { attention } from '../../src/compute/kernels/ref/attention.ts'
import { matmul } from '../../src/compute/kernels/ref/matmul.ts'
import { seededRandom, uniformArray } from '../../src/compute/kernels/ref/seeded-random.ts'
import { softmax } from '../../src/compute/kernels/ref/softmax.ts'
import { fromFloat } from '../../src/compute/kernels/ref/tensor.ts'
import {
  attentionShape,
  type BenchOptions,
  type KernelBenchRun,
  type OpName,
  type OpResult,
  PROGRESS,
  type Timing,
} from './protocol.ts'
import { percentile } from '../stats.ts'
import { recordDispatches } from './record-dispatches.ts'

declare global {
  var runKernelBench: ((options: BenchOptions) => Promise<KernelBenchRun>) | undefined
}

/** A runaway repeat count (a call timed at ~0 ms) stops here. */
const MAX_REPEATS = 20_000

const reproFiles = import.meta.glob<string>('../../shaders/*.wgsl', {
  query: '?raw',
  import: 'default',
  eager: true,
})
const fastFiles = import.meta.glob<string>('../../shaders/fast/*.wgsl', {
  query: '?raw',
  import: 'default',
  eager: true,
})

function byName<N extends string>(files: Record<string, string>, dir: string, names: readonly N[]) {
  const entries = names.map((name): [N, string] => {
    const source = files[`${dir}/${name}.wgsl`]
    if (source === undefined) throw new Error(`shader ${dir}/${name}.wgsl is missing from the page build`)
    return [name, source]
  })
  return Object.fromEntries(entries) as Record<N, string>
}

const shaders: Shaders = byName(reproFiles, '../../shaders', SHADER_NAMES)
const fastShaders: FastShaders = byName(fastFiles, '../../shaders/fast', FAST_SHADER_NAMES)

/** Timed runs per measurement: the machine may be shared, so the median of three. */
const SAMPLES = 3
/** A run this long is timed once (SwiftShader at large sizes). */
const SLOW_RUN_MS = 2_000

/**
 * Warms up with one call, finds a repeat count R whose run lasts `minMs`, then times SAMPLES runs of R
 * calls and reports the median per call.
 */
async function measure(call: (times: number) => Promise<void> | void, minMs: number): Promise<Timing> {
  const timed = async (times: number) => {
    const start = performance.now()
    await call(times)
    return performance.now() - start
  }
  await call(1) // first use: lazy pipeline compilation, caches, JIT
  let times = 1
  let ms = await timed(times)
  while (ms < minMs && times < MAX_REPEATS) {
    // aim 20% past the target so that the next run is usually the last
    times = Math.min(MAX_REPEATS, Math.max(times * 2, Math.ceil((times * minMs * 1.2) / Math.max(ms, 0.05))))
    ms = await timed(times)
  }
  const runs = [ms]
  while (ms < SLOW_RUN_MS && runs.length < SAMPLES) runs.push(await timed(times))
  const perCall = runs.map((r) => r / times)
  return { ms: percentile(perCall, 50), repeats: times, samples: perCall }
}

/** f32 inputs; the reproducible paths encode the same values (fromFloat), so all three see one input. */
const f32 = (rand: () => number, n: number, lo: number, hi: number) =>
  Float32Array.from(uniformArray(rand, n, lo, hi))

interface OpCase {
  readonly shape: string
  /** the fast kernel's dispatches over uploaded inputs (release frees the inputs too) */
  fast(): ResidentOp
  /** one reproducible host call, recorded */
  repro(): Promise<ResidentOp>
  twin(): void
}

globalThis.runKernelBench = async (options) => {
  const adapter = await navigator.gpu?.requestAdapter({ powerPreference: 'high-performance' })
  if (!adapter)
    throw new Error('no WebGPU adapter in this browser: launch Chromium with --enable-unsafe-webgpu')
  const device = await adapter.requestDevice({
    // large sizes need the adapter's buffer limits, not the defaults (128 MiB binding, 256 MiB buffer)
    requiredLimits: {
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxBufferSize: adapter.limits.maxBufferSize,
    },
  })
  const errors: string[] = []
  device.addEventListener('uncapturederror', (event) => {
    if (errors.length < 5) errors.push(event.error.message)
  })
  const recorder = recordDispatches(device)
  const repro = {
    matmul: createMatmulKernel(recorder.device, shaders, { x: 8, y: 8 }),
    softmax: createSoftmaxKernel(recorder.device, shaders, 64),
    attention: createAttentionKernel(recorder.device, shaders, 64),
  }
  const fast = {
    matmul: createFastMatmul(device, fastShaders),
    softmax: createFastSoftmax(device, fastShaders),
    attention: createFastAttention(device, fastShaders),
  }

  const recorded = async (call: () => Promise<unknown>) => {
    await call()
    return recorder.take()
  }

  const cases: Record<OpName, (n: number) => OpCase> = {
    matmul(n) {
      const rand = seededRandom(n)
      // |x| < 1 at 2^-15 keeps both operands int16 mantissas: the model's linear after narrowing
      const [a, b] = [f32(rand, n * n, -0.99, 0.99), f32(rand, n * n, -0.99, 0.99)]
      const [qa, qb] = [fromFloat([n, n], -15, a), fromFloat([n, n], -15, b)]
      return {
        shape: `C = A·Bᵀ, ${n}×${n}×${n}`,
        fast: () =>
          bindOwning(device, [a, b], n * n, (c, x, y) =>
            fast.matmul.bind(x, y, c, { m: n, n, k: n, transB: true }),
          ),
        repro: () => recorded(() => repro.matmul.run(qa, qb, { transB: true })),
        twin: () => void matmul(qa, qb, { transB: true }),
      }
    },
    softmax(n) {
      const x = f32(seededRandom(n), n * n, -8, 8)
      const qx = fromFloat([n, n], -16, x)
      return {
        shape: `${n} rows × ${n}`,
        fast: () => bindOwning(device, [x], n * n, (out, xb) => fast.softmax.bind(xb, out, n, n)),
        repro: () => recorded(() => repro.softmax.softmax(qx)),
        twin: () => void softmax(qx),
      }
    },
    attention(n) {
      const shape = attentionShape(n)
      const [qWidth, kvWidth] = [shape.heads * shape.headDim, shape.kvHeads * shape.headDim]
      const rand = seededRandom(n)
      const values = (width: number) => f32(rand, n * width, -2, 2)
      const [q, k, v] = [values(qWidth), values(kvWidth), values(kvWidth)]
      const encode = (t: Float32Array) => fromFloat([n, t.length / n], -16, t)
      const [qq, qk, qv] = [encode(q), encode(k), encode(v)]
      return {
        shape: `causal, seq ${n}, ${shape.heads} heads (${shape.kvHeads} kv) × ${shape.headDim}`,
        fast: () =>
          bindOwning(device, [q, k, v], n * qWidth, (out, qb, kb, vb) =>
            fast.attention.bind(qb, kb, vb, out, shape),
          ),
        repro: () => recorded(() => repro.attention.forward(qq, qk, qv, shape)),
        twin: () => void attention(qq, qk, qv, shape),
      }
    },
  }

  const gpuTiming = async (make: () => ResidentOp | Promise<ResidentOp>) => {
    const op = await make()
    try {
      return await measure((times) => runResident(device, op.dispatches, times), options.minMs)
    } finally {
      op.release()
    }
  }

  const results: OpResult[] = []
  for (const op of options.ops)
    for (const size of options.sizes) {
      const c = cases[op](size)
      const fastTiming = await gpuTiming(c.fast)
      const reproTiming = await gpuTiming(c.repro)
      const twinTiming =
        size > options.twinMaxSize
          ? { skipped: `size above the twin's limit ${options.twinMaxSize}` }
          : await measure((times) => {
              for (let i = 0; i < times; i++) c.twin()
            }, options.minMs)
      const result = { op, size, shape: c.shape, repro: reproTiming, fast: fastTiming, twin: twinTiming }
      console.log(`${PROGRESS} ${JSON.stringify(result)}`)
      results.push(result)
    }
  const info = adapter.info
  return {
    adapter: [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' '),
    isFallbackAdapter: info.isFallbackAdapter ?? false,
    results,
    errors,
  }
}
