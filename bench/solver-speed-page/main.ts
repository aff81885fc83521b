// A bench page (built by bench/solver-speed.ts, not part of the app): generates the same greedy tokens
// from the same prompt with five decoders of one model folder, in this one tab, and reports tokens/s:
// onnxruntime-web on its wasm EP and on its WebGPU EP (both through the solver's generation loop), the
// float64 reference forward by full recompute (same loop), and the reproducible KV-cached generation
// (src/compute/model/generate.ts) on the TS integer twin and on the WGSL kernels of this tab's WebGPU device —
// whose tokens must be the twin's, bit for bit (`sameTokensAsTwin`). A path that cannot run reports why.
import { BUNDLED_SHADERS } from '../../src/compute/kernels/gpu/bundled-shaders.ts'
import { createReproducibleRunner } from '../../src/compute/kernels/reproducible-runner.ts'
import { readCheckpoint } from '../../src/compute/model/checkpoint.ts'
import {
  generate as generateOnTwin,
  generateProgram,
  type Generation,
} from '../../src/compute/model/generate.ts'
import { parseHfConfig } from '../../src/compute/model/load/hf-config.ts'
import { paramsF64 } from '../../src/compute/model/test-model.ts'
import { parseTokenizerJson } from '../../src/compute/model/tokenizer/bpe-tokenizer.ts'
import { generate, type Decoder } from '../../src/peer/solver/generate.ts'
import { ortDecoder } from '../../src/peer/solver/ort-decoder.ts'
import { importOrtBundle } from '../../src/peer/solver/ort-bundles.ts'
import { createSession } from '../../src/peer/solver/ort-runtime.ts'
import { framePrompt } from '../../src/peer/solver/prompt-frame.ts'
import type { SolverBackend } from '../../src/peer/solver/solver-protocol.ts'
import { f64Decoder } from '../../test-support/solver/test-decoders.ts'
import { headDim } from '../../src/compute/model/config.ts'
import type { TraceHook } from '../../src/compute/model/trace-hook.ts'
import { TWIN_PATH, WGSL_PATH } from './path-names.ts'

export interface SpeedOptions {
  /** the model folder's URL, ending in / */
  readonly modelUrl: string
  readonly prompt: string
  readonly newTokens: number
  /** timed runs after one warm-up run */
  readonly runs: number
  /** a path whose warm-up takes longer than this is timed by one run */
  readonly slowRunMs: number
}

export type PathResult =
  | {
      readonly path: string
      readonly ok: true
      /** per timed run */
      readonly tokensPerSecond: number[]
      /** from the start of the path (module import, session creation) to its first token */
      readonly firstTokenMs: number
      /** the first token's time since navigation start */
      readonly firstTokenAt: number
      readonly note?: string
      /** the WebGPU adapter the path ran on (the WGSL forward) */
      readonly adapter?: string
      /** the generated ids (the reproducible paths, whose tokens are compared) */
      readonly tokens?: number[]
    }
  | { readonly path: string; readonly ok: false; readonly reason: string }

export interface SpeedRun {
  readonly promptTokens: number
  readonly newTokens: number
  readonly adapter: string
  readonly crossOriginIsolated: boolean
  /** from navigation start to the wasm path's first token (page load, fetch, runtime, session, prefill) */
  readonly firstTokenAfterPageLoadMs: number | null
  /** whether the WGSL forward generated the TS integer twin's tokens (null: one of them could not run) */
  readonly sameTokensAsTwin: boolean | null
  readonly paths: PathResult[]
}

/** The trace name of the first generated token's draw (generateProgram's token<i>/sample). */
const FIRST_SAMPLE = 'token0/sample'

declare global {
  var runSolverSpeed: ((options: SpeedOptions) => Promise<SpeedRun>) | undefined
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err))

async function fetchBytes(url: string): Promise<Uint8Array> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
  return new Uint8Array(await response.arrayBuffer())
}

interface AdapterInfo {
  readonly vendor?: string
  readonly architecture?: string
  readonly device?: string
  readonly description?: string
}

/** The WebGPU adapter, as its info names it ("google swiftshader" is Chromium's CPU WebGPU). */
async function adapterName(): Promise<string> {
  const gpu = (navigator as { gpu?: { requestAdapter(): Promise<{ info?: AdapterInfo } | null> } }).gpu
  const adapter = await gpu?.requestAdapter().catch(() => null)
  if (!adapter) return 'none'
  const { vendor, architecture, device, description } = adapter.info ?? {}
  return [vendor, architecture, device, description].filter(Boolean).join(' ') || 'unknown'
}

globalThis.runSolverSpeed = async (options) => {
  const { modelUrl, newTokens } = options
  const [configBytes, tokenizerBytes, manifestBytes, onnx, checkpointBytes] = await Promise.all(
    ['config.json', 'tokenizer.json', 'tabswarm.json', 'onnx/model.onnx', 'model.safetensors'].map((f) =>
      fetchBytes(modelUrl + f),
    ),
  )
  const { config } = parseHfConfig(configBytes!)
  const tokenizer = parseTokenizerJson(JSON.parse(new TextDecoder().decode(tokenizerBytes)))
  const manifest = JSON.parse(new TextDecoder().decode(manifestBytes)) as { promptTemplate: string }
  const promptIds = tokenizer.encode(framePrompt(manifest.promptTemplate, options.prompt))
  const checkpoint = readCheckpoint(checkpointBytes!)
  // greedy and no EOS: every path makes exactly newTokens tokens
  const request = {
    promptIds,
    samples: 1,
    sampling: { temperature: 0, topK: 0, topP: 1, seed: 1, maxNewTokens: newTokens },
    eosIds: [],
    decode: (ids: readonly number[]) => tokenizer.decode(ids),
  }

  /** One warm-up run (its first token timed from `startedAt`), then the timed runs. */
  async function timeLoop<C>(path: string, startedAt: number, decoder: Decoder<C>): Promise<PathResult> {
    let firstAt: number | undefined
    const warm = performance.now()
    await generate(decoder, { ...request, onDelta: () => (firstAt ??= performance.now()) })
    const warmMs = performance.now() - warm
    const tokensPerSecond: number[] = []
    const runs = warmMs > options.slowRunMs ? 1 : options.runs
    for (let i = 0; i < runs; i++) tokensPerSecond.push((await generate(decoder, request)).tokensPerSecond)
    firstAt ??= performance.now()
    const slow = runs === 1 ? 'one timed run (slow)' : undefined
    return {
      path,
      ok: true,
      tokensPerSecond,
      firstTokenMs: firstAt - startedAt,
      firstTokenAt: firstAt,
      note: slow,
    }
  }

  /**
   * One warm-up generation (its first token, seen by the trace hook, timed from `startedAt`), then the
   * timed runs: the TS integer twin and the WGSL forward are timed alike.
   */
  async function timeReproducible(
    path: string,
    startedAt: number,
    generateOnce: (trace?: TraceHook) => Generation | Promise<Generation>,
  ): Promise<PathResult & { ok: true; tokens: number[] }> {
    let firstAt: number | undefined
    const run = async (trace?: TraceHook) => {
      const t = performance.now()
      const out = await generateOnce(trace)
      return { ms: performance.now() - t, tokens: out.tokens }
    }
    const warm = await run((name) => {
      if (name === FIRST_SAMPLE) firstAt ??= performance.now()
    })
    const timed: { ms: number; tokens: Int32Array }[] = []
    const runs = warm.ms > options.slowRunMs ? 1 : options.runs
    for (let i = 0; i < runs; i++) timed.push(await run())
    firstAt ??= performance.now()
    return {
      path,
      ok: true,
      tokensPerSecond: timed.map((r) => r.tokens.length / (r.ms / 1000)),
      firstTokenMs: firstAt - startedAt,
      firstTokenAt: firstAt,
      note: runs === 1 ? 'one timed run (slow)' : undefined,
      tokens: Array.from(warm.tokens),
    }
  }

  async function ortPath(backend: SolverBackend): Promise<PathResult> {
    const path = `onnxruntime-web ${backend}`
    const startedAt = performance.now()
    try {
      const ort = await importOrtBundle(backend)
      const session = await createSession(ort, backend, onnx!)
      const decoder = ortDecoder(ort, session, {
        vocabSize: config.vocabSize,
        maxContext: config.maxSeqLen,
        kvHeads: config.kvHeads,
        headDim: headDim(config),
      })
      const result = await timeLoop(path, startedAt, decoder)
      await session.release()
      return result
    } catch (err) {
      return { path, ok: false, reason: errorText(err) }
    }
  }

  const paths: PathResult[] = []
  // first: its first token, timed from navigation start, is the page's time to first token
  const wasm = await ortPath('wasm')
  paths.push(wasm)
  paths.push(await ortPath('webgpu'))

  {
    const path = 'TS float64 reference (full recompute)'
    const startedAt = performance.now()
    try {
      paths.push(await timeLoop(path, startedAt, f64Decoder(config, paramsF64(checkpoint.params), false)))
    } catch (err) {
      paths.push({ path, ok: false, reason: errorText(err) })
    }
  }
  // the reproducible paths' shared inputs: greedy, as the solver loop's paths
  const prompt = Int32Array.from(promptIds)
  const generateOptions = {
    maxNewTokens: newTokens,
    sampling: { temperatureQ16: 0, topK: 0, topPQ30: 2 ** 30 },
    seed: [1, 2] as const,
    step: 0,
  }

  let twinTokens: number[] | undefined
  {
    const path = TWIN_PATH
    try {
      const result = await timeReproducible(path, performance.now(), (trace) =>
        generateOnTwin(config, checkpoint.params, prompt, generateOptions, trace),
      )
      twinTokens = result.tokens
      paths.push(result)
    } catch (err) {
      paths.push({ path, ok: false, reason: errorText(err) })
    }
  }
  let sameTokensAsTwin: boolean | null = null
  {
    const path = WGSL_PATH
    const startedAt = performance.now()
    try {
      const runner = await createReproducibleRunner(navigator.gpu, BUNDLED_SHADERS)
      if (runner.backend !== 'webgpu' || !runner.adapter)
        throw new Error(`no WebGPU device for the WGSL kernels: ${runner.note ?? 'unknown reason'}`)
      const { vendor, architecture, description, isFallbackAdapter } = runner.adapter
      const adapter =
        [vendor, architecture, description].filter(Boolean).join(' ') +
        (isFallbackAdapter ? ' (fallback, CPU)' : '')
      const result = await timeReproducible(path, startedAt, (trace) =>
        runner.run(generateProgram(config, checkpoint.params, prompt, generateOptions, trace)),
      )
      // same program, same bits: the WGSL kernels must draw the twin's tokens
      if (twinTokens) sameTokensAsTwin = result.tokens.join() === twinTokens.join()
      paths.push({ ...result, adapter })
    } catch (err) {
      paths.push({ path, ok: false, reason: errorText(err) })
    }
  }
  return {
    promptTokens: promptIds.length,
    newTokens,
    adapter: await adapterName(),
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    firstTokenAfterPageLoadMs: wasm.ok ? wasm.firstTokenAt : null,
    sameTokensAsTwin,
    paths,
  }
}
