import * as ort from 'onnxruntime-web'
import { describe, expect, it } from 'vitest'
import { SeededRandom } from '../../../core/tasks/seeded-random.ts'
import { headDim, type ModelConfig } from '../config.ts'
import { forwardF64 } from '../forward-f64.ts'
import { parameterLayout } from '../layout.ts'
import { TINY_CONFIG } from '../test-model.ts'
import { exportOnnx, onnxIoNames } from './export-onnx.ts'

ort.env.wasm.numThreads = 1

/**
 * Tolerance against the float64 forward: the graph runs in float32 (ε ≈ 6e-8) through two layers of
 * sums over ≤ 48 terms and a softmax, with logits spanning up to ~10 at std 0.3; measured ≤ 1e-5.
 * 1e-4 still catches a wrong formula: a wrong RoPE sign, mask offset or head grouping moves logits
 * by far more than 1e-3.
 */
const F64_TOLERANCE = 1e-4
/**
 * Tolerance between cached and full-recompute decoding: the same float32 graph, but MatMul and
 * Softmax run over different shapes (1 or 3 query rows instead of 16), so the kernels' summation
 * order differs by a few ulps of logits up to ~10 (measured < 5e-6).
 */
const KV_TOLERANCE = 1e-5

/** The first session compiles onnxruntime's wasm: seconds on a loaded 2-core machine. */
const ORT_TIMEOUT_MS = 60_000

const UNTIED: ModelConfig = { ...TINY_CONFIG, tiedEmbeddings: false }

/** Norm gains 1 ± 0.2, all other weights uniform with standard deviation `std`. */
function randomParams(config: ModelConfig, std: number, seed: string): Map<string, Float64Array> {
  const random = new SeededRandom(seed)
  const uniform = () => (random.nextUint32() / 2 ** 32) * 2 - 1
  return new Map(
    parameterLayout(config).map((spec) => {
      const size = spec.shape.reduce((a, b) => a * b, 1)
      const draw = () => (spec.kind === 'norm' ? 1 + 0.2 * uniform() : Math.sqrt(3) * std * uniform())
      return [spec.name, Float64Array.from({ length: size }, draw)]
    }),
  )
}

function randomIds(config: ModelConfig, count: number, seed: string): Int32Array {
  const random = new SeededRandom(seed)
  return Int32Array.from({ length: count }, () => random.int(0, config.vocabSize - 1))
}

const int64 = (values: ArrayLike<number>, dims: number[]) =>
  new ort.Tensor('int64', BigInt64Array.from(Array.from(values), BigInt), dims)

interface Cache {
  readonly keys: ort.Tensor[]
  readonly values: ort.Tensor[]
}

function emptyCache(config: ModelConfig, batch: number): Cache {
  const empty = () =>
    new ort.Tensor('float32', new Float32Array(0), [batch, config.kvHeads, 0, headDim(config)])
  return {
    keys: Array.from({ length: config.layers }, empty),
    values: Array.from({ length: config.layers }, empty),
  }
}

interface Call {
  /** Row-major [batch, seq]. */
  readonly ids: ArrayLike<number>
  readonly batch: number
  /** Row-major [batch, past + seq]; all ones when absent. */
  readonly mask?: ArrayLike<number>
  /** Row-major [batch, seq]; past, past + 1, … when absent. */
  readonly positions?: ArrayLike<number>
  readonly cache?: Cache
}

/** One session.run with the onnx-community feeds; returns the logits [batch, seq, vocab] and the new cache. */
async function decode(session: ort.InferenceSession, config: ModelConfig, call: Call) {
  const io = onnxIoNames(config)
  const { batch } = call
  const seq = call.ids.length / batch
  const cache = call.cache ?? emptyCache(config, batch)
  const past = cache.keys[0]!.dims[2]!
  const mask = call.mask ?? new Array<number>(batch * (past + seq)).fill(1)
  const positions = call.positions ?? Array.from({ length: batch * seq }, (_, i) => past + (i % seq))
  const feeds: Record<string, ort.Tensor> = {
    [io.inputIds]: int64(call.ids, [batch, seq]),
    [io.attentionMask]: int64(mask, [batch, past + seq]),
    [io.positionIds]: int64(positions, [batch, seq]),
  }
  io.layers.forEach((names, l) => {
    feeds[names.pastKey] = cache.keys[l]!
    feeds[names.pastValue] = cache.values[l]!
  })
  const out = await session.run(feeds)
  const logits = out[io.logits]!
  expect(logits.dims).toEqual([batch, seq, config.vocabSize])
  const next: Cache = {
    keys: io.layers.map((n) => out[n.presentKey]!),
    values: io.layers.map((n) => out[n.presentValue]!),
  }
  for (const t of [...next.keys, ...next.values])
    expect(t.dims).toEqual([batch, config.kvHeads, past + seq, headDim(config)])
  return { logits: logits.data as Float32Array, cache: next }
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length)
  let max = 0
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!))
  return max
}

const open = (config: ModelConfig, params: Map<string, Float64Array>) =>
  ort.InferenceSession.create(exportOnnx(config, params))

describe('exportOnnx against forwardF64', () => {
  const cases = [
    { label: 'tied, std 0.02', config: TINY_CONFIG, std: 0.02 },
    { label: 'tied, std 0.3', config: TINY_CONFIG, std: 0.3 },
    { label: 'untied, std 0.02', config: UNTIED, std: 0.02 },
    { label: 'untied, std 0.3', config: UNTIED, std: 0.3 },
  ]
  it.each(cases)(
    'logits match within 1e-4 ($label, batch 2)',
    async ({ label, config, std }) => {
      const params = randomParams(config, std, `weights/${label}`)
      const session = await open(config, params)
      const batch = 2
      for (const seqLen of [1, 5, config.maxSeqLen]) {
        const ids = randomIds(config, batch * seqLen, `ids/${label}/${seqLen}`)
        const { logits } = await decode(session, config, { ids, batch })
        const expected = forwardF64(config, params, { ids, batch, seqLen })
        const diff = maxAbsDiff(logits, expected)
        const spread = Math.max(...expected) - Math.min(...expected)
        console.log(
          `[${label}] seq ${seqLen}: max |onnx − f64| = ${diff.toExponential(2)} (logit range ${spread.toFixed(2)})`,
        )
        expect(diff).toBeLessThan(F64_TOLERANCE)
      }
      await session.release()
    },
    ORT_TIMEOUT_MS,
  )
})

describe('exportOnnx KV cache', () => {
  it(
    'prefill then chunked and single-token steps equal one full call within 1e-5',
    async () => {
      const config = UNTIED
      const params = randomParams(config, 0.3, 'weights/kv')
      const session = await open(config, params)
      const batch = 2
      const seqLen = config.maxSeqLen
      const ids = randomIds(config, batch * seqLen, 'ids/kv')
      const full = await decode(session, config, { ids, batch })
      // steps: prefill 5 tokens, a 3-token chunk, then one token at a time
      const bounds = [0, 5, 8, ...Array.from({ length: seqLen - 8 }, (_, i) => 9 + i)]
      const stepwise = new Float32Array(full.logits.length)
      let cache: Cache | undefined
      for (let s = 0; s + 1 < bounds.length; s++) {
        const [from, to] = [bounds[s]!, bounds[s + 1]!]
        const rows = Array.from({ length: batch }, (_, b) => ids.subarray(b * seqLen + from, b * seqLen + to))
        const step = await decode(session, config, { ids: rows.flatMap((r) => Array.from(r)), batch, cache })
        for (let b = 0; b < batch; b++)
          stepwise.set(
            step.logits.subarray(
              b * (to - from) * config.vocabSize,
              (b + 1) * (to - from) * config.vocabSize,
            ),
            (b * seqLen + from) * config.vocabSize,
          )
        cache = step.cache
      }
      const diff = maxAbsDiff(stepwise, full.logits)
      const cacheDiff = Math.max(
        ...cache!.keys.map((t, l) =>
          maxAbsDiff(t.data as Float32Array, full.cache.keys[l]!.data as Float32Array),
        ),
        ...cache!.values.map((t, l) =>
          maxAbsDiff(t.data as Float32Array, full.cache.values[l]!.data as Float32Array),
        ),
      )
      console.log(
        `[kv] max |cached − full| logits ${diff.toExponential(2)}, present ${cacheDiff.toExponential(2)}`,
      )
      expect(diff).toBeLessThan(KV_TOLERANCE)
      expect(cacheDiff).toBeLessThan(KV_TOLERANCE)
      await session.release()
    },
    ORT_TIMEOUT_MS,
  )
})

describe('exportOnnx attention_mask', () => {
  it(
    'left padding: padded keys are invisible and fully masked rows stay finite',
    async () => {
      const config = TINY_CONFIG
      const params = randomParams(config, 0.3, 'weights/pad')
      const session = await open(config, params)
      const [pad, short, long] = [3, 6, 9]
      const shortIds = randomIds(config, short, 'ids/pad/short')
      const longIds = randomIds(config, long, 'ids/pad/long')
      // Hugging Face style: pad positions get position 1, real tokens count from 0
      const { logits } = await decode(session, config, {
        batch: 2,
        ids: [...new Array<number>(pad).fill(0), ...shortIds, ...longIds],
        mask: [...new Array<number>(pad).fill(0), ...new Array<number>(short + long).fill(1)],
        positions: [
          ...new Array<number>(pad).fill(1),
          ...Array.from({ length: short }, (_, i) => i),
          ...longIds.keys(),
        ],
      })
      expect(logits.every(Number.isFinite)).toBe(true)
      const v = config.vocabSize
      const shortDiff = maxAbsDiff(
        logits.subarray(pad * v, long * v),
        forwardF64(config, params, { ids: shortIds, batch: 1, seqLen: short }),
      )
      const longDiff = maxAbsDiff(
        logits.subarray(long * v),
        forwardF64(config, params, { ids: longIds, batch: 1, seqLen: long }),
      )
      console.log(
        `[pad] max |onnx − f64| padded row ${shortDiff.toExponential(2)}, full row ${longDiff.toExponential(2)}`,
      )
      expect(shortDiff).toBeLessThan(F64_TOLERANCE)
      expect(longDiff).toBeLessThan(F64_TOLERANCE)
      await session.release()
    },
    ORT_TIMEOUT_MS,
  )
})

describe('exportOnnx inputs and outputs', () => {
  it(
    'declares the onnx-community Qwen2 names',
    async () => {
      const session = await open(TINY_CONFIG, randomParams(TINY_CONFIG, 0.02, 'weights/io'))
      expect(session.inputNames).toEqual([
        'input_ids',
        'attention_mask',
        'position_ids',
        'past_key_values.0.key',
        'past_key_values.0.value',
        'past_key_values.1.key',
        'past_key_values.1.value',
      ])
      expect(session.outputNames).toEqual([
        'logits',
        'present.0.key',
        'present.0.value',
        'present.1.key',
        'present.1.value',
      ])
      await session.release()
    },
    ORT_TIMEOUT_MS,
  )

  it(
    'is about 4 bytes per parameter: a 100K-parameter model',
    async () => {
      const config: ModelConfig = {
        vocabSize: 256,
        dim: 64,
        layers: 2,
        heads: 4,
        kvHeads: 2,
        ffnDim: 176,
        ropeTheta: 10000,
        maxSeqLen: 128,
        tiedEmbeddings: true,
        normEps: 1e-6,
      }
      const params = randomParams(config, 0.02, 'weights/100k')
      const count = [...params.values()].reduce((a, p) => a + p.length, 0)
      const bytes = exportOnnx(config, params)
      const ropeBytes = 2 * 4 * config.maxSeqLen * (headDim(config) / 2)
      console.log(`[size] ${count} parameters → ${bytes.length} bytes of ONNX`)
      expect(bytes.length).toBeGreaterThan(4 * count + ropeBytes)
      expect(bytes.length).toBeLessThan(4 * count + ropeBytes + 16_384)
      const session = await ort.InferenceSession.create(bytes)
      const ids = randomIds(config, 2 * 8, 'ids/100k')
      const { logits } = await decode(session, config, { ids, batch: 2 })
      expect(maxAbsDiff(logits, forwardF64(config, params, { ids, batch: 2, seqLen: 8 }))).toBeLessThan(
        F64_TOLERANCE,
      )
      await session.release()
    },
    ORT_TIMEOUT_MS,
  )
})

describe('exportOnnx parameter checks', () => {
  const params = () => randomParams(UNTIED, 0.02, 'weights/errors')
  it('names a missing parameter', () => {
    const p = params()
    p.delete('model.layers.1.mlp.up_proj.weight')
    expect(() => exportOnnx(UNTIED, p)).toThrow(
      'exportOnnx: missing parameter model.layers.1.mlp.up_proj.weight',
    )
  })
  it('names a misshapen parameter', () => {
    const p = params()
    p.set('model.layers.0.self_attn.k_proj.weight', new Float64Array(10))
    expect(() => exportOnnx(UNTIED, p)).toThrow(
      'exportOnnx: parameter model.layers.0.self_attn.k_proj.weight has 10 values, shape [16,32] needs 512',
    )
  })
  it('names a non-finite value', () => {
    const p = params()
    p.get('model.norm.weight')![3] = NaN
    expect(() => exportOnnx(UNTIED, p)).toThrow(
      'exportOnnx: parameter model.norm.weight has a non-finite value at 3',
    )
  })
  it('names a parameter the config does not have', () => {
    expect(() => exportOnnx(TINY_CONFIG, params())).toThrow(
      'exportOnnx: parameter lm_head.weight is not in the layout of this config (tiedEmbeddings is true)',
    )
  })
  it('rejects an invalid config', () => {
    expect(() => exportOnnx({ ...UNTIED, kvHeads: 3 }, params())).toThrow(
      /heads must be a multiple of kvHeads/,
    )
  })
})
