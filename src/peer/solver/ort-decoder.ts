// An onnxruntime-web InferenceSession as the generation loop's Decoder. The feeds follow the
// onnx-community Qwen2 signature (docs/model-folder.md): input_ids, attention_mask, optional
// position_ids, and per layer past_key_values.l.key|value in, present.l.key|value out. A model without
// the past inputs is run by full recompute.
import type { InferenceSession, Tensor } from 'onnxruntime-web'
import type { Decoder } from './generate.ts'

/** The cache between steps: past input name → the present tensor the previous step returned. */
export type OrtKvCache = Map<string, Tensor>

/** The part of the onnxruntime-web module the decoder needs (the bundles differ, this does not). */
export interface OrtTensorApi {
  readonly Tensor: typeof Tensor
}

export interface DecoderShape {
  readonly vocabSize: number
  readonly maxContext: number
  /** KV heads and head width, used when the model's metadata leaves those dims symbolic */
  readonly kvHeads: number
  readonly headDim: number
}

const PAST = /^past_key_values\.(\d+)\.(key|value)$/
const FED_INPUTS = new Set(['input_ids', 'attention_mask', 'position_ids'])

/** A dim the metadata fixes as a number, else the fallback. */
function fixedDim(meta: InferenceSession.ValueMetadata | undefined, axis: number, fallback: number): number {
  const dim = meta?.isTensor ? meta.shape[axis] : undefined
  return typeof dim === 'number' ? dim : fallback
}

export function ortDecoder(
  ort: OrtTensorApi,
  session: InferenceSession,
  shape: DecoderShape,
): Decoder<OrtKvCache> {
  const inputs = new Set(session.inputNames)
  const outputs = new Set(session.outputNames)
  if (!inputs.has('input_ids') || !outputs.has('logits'))
    throw new TypeError(
      'the ONNX model has no input_ids input or no logits output; it is not a causal-LM decoder',
    )
  const pastNames = session.inputNames.filter((name) => PAST.test(name))
  const unknown = session.inputNames.filter((name) => !FED_INPUTS.has(name) && !PAST.test(name))
  if (unknown.length > 0)
    throw new TypeError(`the ONNX model needs inputs the solver does not feed: ${unknown.join(', ')}`)
  const presentOf = new Map(pastNames.map((name) => [name, name.replace(PAST, 'present.$1.$2')]))
  const missing = [...presentOf.values()].filter((name) => !outputs.has(name))
  if (missing.length > 0)
    throw new TypeError(`the ONNX model has KV inputs but not the outputs ${missing.join(', ')}`)
  const metadata = new Map(session.inputMetadata.map((meta) => [meta.name, meta]))
  for (const name of [...pastNames, 'logits']) {
    const meta = metadata.get(name) ?? session.outputMetadata.find((m) => m.name === name)
    if (meta?.isTensor && meta.type !== 'float32')
      throw new TypeError(
        `the ONNX model's ${name} is ${meta.type}; the solver runs float32 logits and KV caches`,
      )
  }
  const firstPast = metadata.get(pastNames[0] ?? '')
  const kvHeads = fixedDim(firstPast, 1, shape.kvHeads)
  const headDim = fixedDim(firstPast, 3, shape.headDim)

  const int64 = (values: (i: number) => number, dims: number[]) => {
    const data = new BigInt64Array(dims.reduce((a, b) => a * b, 1))
    for (let i = 0; i < data.length; i++) data[i] = BigInt(values(i))
    return new ort.Tensor('int64', data, dims)
  }

  return {
    vocabSize: shape.vocabSize,
    maxContext: shape.maxContext,
    usesCache: pastNames.length > 0,
    async step({ ids, batch, seqLen, pastLength, past }) {
      const total = pastLength + seqLen
      const feeds: Record<string, Tensor> = { input_ids: int64((i) => ids[i]!, [batch, seqLen]) }
      if (inputs.has('attention_mask')) feeds.attention_mask = int64(() => 1, [batch, total])
      if (inputs.has('position_ids'))
        feeds.position_ids = int64((i) => pastLength + (i % seqLen), [batch, seqLen])
      for (const name of pastNames)
        feeds[name] =
          past?.get(name) ?? new ort.Tensor('float32', new Float32Array(0), [batch, kvHeads, 0, headDim])
      const results = await session.run(feeds)
      const present: OrtKvCache = new Map(pastNames.map((name) => [name, results[presentOf.get(name)!]!]))
      return {
        logits: results.logits!.data as Float32Array,
        present: pastNames.length > 0 ? present : undefined,
      }
    },
    expand(cache, batch) {
      const rows: OrtKvCache = new Map()
      for (const [name, tensor] of cache) {
        const single = tensor.data as Float32Array
        const tiled = new Float32Array(batch * single.length)
        for (let r = 0; r < batch; r++) tiled.set(single, r * single.length)
        rows.set(name, new ort.Tensor('float32', tiled, [batch, ...tensor.dims.slice(1)]))
      }
      return rows
    },
    release(cache) {
      for (const tensor of cache.values()) tensor.dispose()
    },
  }
}
