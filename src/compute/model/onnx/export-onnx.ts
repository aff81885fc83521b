// Writes tabswarm's decoder (the model of forward-f64.ts) as an ONNX file with the onnx-community
// Qwen2 KV-cache signature (docs/model-folder.md), so the solver's generation loop drives it exactly
// like a Hugging Face export. Default-domain ops of opset 17 only: no com.microsoft contrib ops, so
// both the wasm and the WebGPU execution providers of onnxruntime-web run it.
import { headDim, validateConfig, type ModelConfig } from '../config.ts'
import { layerParamName, parameterLayout } from '../layout.ts'
import { attentionBias, mergeHeads, repeatKv, rmsNorm, rotary, splitHeads } from './decoder-ops.ts'
import { GraphBuilder } from './graph-builder.ts'
import { encodeModel, type ValueInfo } from './onnx-proto.ts'

/** IR version 8 and opset 17: what onnxruntime-web 1.30 loads in browsers and Node (research notes §5). */
export const ONNX_IR_VERSION = 8
export const ONNX_OPSET = 17

/** Symbolic dimension names of the onnx-community exports. */
const BATCH = 'batch_size'
const SEQ = 'sequence_length'
const PAST = 'past_sequence_length'
const TOTAL = 'total_sequence_length'

export interface OnnxLayerNames {
  readonly pastKey: string
  readonly pastValue: string
  readonly presentKey: string
  readonly presentValue: string
}

export interface OnnxIoNames {
  readonly inputIds: string
  readonly attentionMask: string
  readonly positionIds: string
  readonly logits: string
  /** Per layer: `past_key_values.l.key|value` in, `present.l.key|value` out. */
  readonly layers: readonly OnnxLayerNames[]
}

/** Input and output names of the exported decoder, for building feeds and reading fetches. */
export function onnxIoNames(config: Pick<ModelConfig, 'layers'>): OnnxIoNames {
  return {
    inputIds: 'input_ids',
    attentionMask: 'attention_mask',
    positionIds: 'position_ids',
    logits: 'logits',
    layers: Array.from({ length: config.layers }, (_, l) => ({
      pastKey: `past_key_values.${l}.key`,
      pastValue: `past_key_values.${l}.value`,
      presentKey: `present.${l}.key`,
      presentValue: `present.${l}.value`,
    })),
  }
}

/**
 * The decoder as ONNX bytes. `params` holds every parameter of `parameterLayout(config)` by name as
 * float64 (how the weights were made does not matter); they are stored as float32 initializers,
 * linear weights transposed to [in, out] once here so each projection is a plain MatMul.
 */
export function exportOnnx(
  config: ModelConfig,
  params: ReadonlyMap<string, Float64Array>,
  options: { name?: string } = {},
): Uint8Array {
  validateConfig(config)
  checkParams(config, params)
  const g = new GraphBuilder()
  const io = onnxIoNames(config)
  const { heads, kvHeads, normEps: eps } = config
  const hd = headDim(config)
  const shapes = new Map(parameterLayout(config).map((spec) => [spec.name, spec.shape]))
  /** A parameter as float32 in its layout shape (norm gains, the embedding). */
  const stored = (name: string) =>
    g.initializer(name, shapes.get(name)!, Float32Array.from(params.get(name)!))
  /** x·Wᵀ, with the linear weight W [out, in] stored as its transpose [in, out]. */
  const linear = (x: string, name: string, output?: string) => {
    const [out, inn] = shapes.get(name)! as [number, number]
    const w = params.get(name)!
    const t = new Float32Array(w.length)
    for (let o = 0; o < out; o++) for (let i = 0; i < inn; i++) t[i * out + o] = w[o * inn + i]!
    return g.op('MatMul', [x, g.initializer(`${name}.T`, [inn, out], t)], undefined, output)
  }

  const bias = attentionBias(g, io.inputIds, io.attentionMask)
  const rope = rotary(g, config, io.positionIds)
  const scale = g.float(1 / Math.sqrt(hd))
  const embedding = stored('model.embed_tokens.weight')
  let h = g.op('Gather', [embedding, io.inputIds], [{ name: 'axis', int: 0 }])
  io.layers.forEach((names, l) => {
    const w = (part: string) => layerParamName(l, part)
    const xn = rmsNorm(g, h, stored(w('input_layernorm')), eps)
    const q = g.op('Mul', [rope(splitHeads(g, linear(xn, w('self_attn.q_proj')), heads, hd)), scale])
    const k = rope(splitHeads(g, linear(xn, w('self_attn.k_proj')), kvHeads, hd))
    const v = splitHeads(g, linear(xn, w('self_attn.v_proj')), kvHeads, hd)
    // the cache holds keys after RoPE, like the Hugging Face exports
    const keys = g.op('Concat', [names.pastKey, k], [{ name: 'axis', int: 2 }], names.presentKey)
    const values = g.op('Concat', [names.pastValue, v], [{ name: 'axis', int: 2 }], names.presentValue)
    const keysT = g.op('Transpose', [repeatKv(g, keys, config)], [{ name: 'perm', ints: [0, 1, 3, 2] }])
    const probs = g.op(
      'Softmax',
      [g.op('Add', [g.op('MatMul', [q, keysT]), bias])],
      [{ name: 'axis', int: -1 }],
    )
    const mixed = mergeHeads(g, g.op('MatMul', [probs, repeatKv(g, values, config)]), heads, hd)
    h = g.op('Add', [h, linear(mixed, w('self_attn.o_proj'))])
    const xn2 = rmsNorm(g, h, stored(w('post_attention_layernorm')), eps)
    const gate = linear(xn2, w('mlp.gate_proj'))
    const act = g.op('Mul', [g.op('Mul', [gate, g.op('Sigmoid', [gate])]), linear(xn2, w('mlp.up_proj'))])
    h = g.op('Add', [h, linear(act, w('mlp.down_proj'))])
  })
  const hn = rmsNorm(g, h, stored('model.norm.weight'), eps)
  if (config.tiedEmbeddings) {
    // One Transpose of the embedding initializer instead of a second copy in the file;
    // onnxruntime folds it into a constant when the session is created.
    const embeddingT = g.op('Transpose', [embedding], [{ name: 'perm', ints: [1, 0] }])
    g.op('MatMul', [hn, embeddingT], undefined, io.logits)
  } else linear(hn, 'lm_head.weight', io.logits)

  return encodeModel({
    irVersion: ONNX_IR_VERSION,
    opsetVersion: ONNX_OPSET,
    producerName: 'tabswarm',
    graph: {
      name: options.name ?? 'tabswarm',
      nodes: g.nodes,
      initializers: g.initializers,
      ...signature(config, io),
    },
  })
}

/** The declared inputs and outputs, with the onnx-community symbolic dimension names. */
function signature(config: ModelConfig, io: OnnxIoNames): { inputs: ValueInfo[]; outputs: ValueInfo[] } {
  const kv = (name: string, len: string): ValueInfo => ({
    name,
    elemType: 'float32',
    shape: [BATCH, config.kvHeads, len, headDim(config)],
  })
  return {
    inputs: [
      { name: io.inputIds, elemType: 'int64', shape: [BATCH, SEQ] },
      { name: io.attentionMask, elemType: 'int64', shape: [BATCH, TOTAL] },
      { name: io.positionIds, elemType: 'int64', shape: [BATCH, SEQ] },
      ...io.layers.flatMap((n) => [kv(n.pastKey, PAST), kv(n.pastValue, PAST)]),
    ],
    outputs: [
      { name: io.logits, elemType: 'float32', shape: [BATCH, SEQ, config.vocabSize] },
      ...io.layers.flatMap((n) => [kv(n.presentKey, TOTAL), kv(n.presentValue, TOTAL)]),
    ],
  }
}

/** Throws naming the first parameter that is missing, misshapen, not finite or not in the layout. */
function checkParams(config: ModelConfig, params: ReadonlyMap<string, Float64Array>): void {
  const layout = parameterLayout(config)
  for (const { name, shape } of layout) {
    const values = params.get(name)
    if (!values) throw new RangeError(`exportOnnx: missing parameter ${name}`)
    const size = shape.reduce((a, b) => a * b, 1)
    if (values.length !== size)
      throw new RangeError(
        `exportOnnx: parameter ${name} has ${values.length} values, shape [${shape}] needs ${size}`,
      )
    const bad = values.findIndex((x) => !Number.isFinite(x))
    if (bad >= 0) throw new RangeError(`exportOnnx: parameter ${name} has a non-finite value at ${bad}`)
  }
  const known = new Set(layout.map((spec) => spec.name))
  for (const name of params.keys())
    if (!known.has(name))
      throw new RangeError(
        `exportOnnx: parameter ${name} is not in the layout of this config` +
          (name === 'lm_head.weight' ? ' (tiedEmbeddings is true)' : ''),
      )
}
