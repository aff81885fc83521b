import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { qtensor } from '../kernels/ref/tensor.ts'
import { forward } from '../model/forward.ts'
import { generate } from '../model/generate.ts'
import type { Params } from '../model/params.ts'
import { initTrainState, trainStep } from '../model/train-step.ts'
import {
  DEMO_BATCH,
  DEMO_GENERATION,
  DEMO_MODEL,
  DEMO_PROMPT,
  DEMO_SEED,
  DEMO_TARGETS,
  DEMO_TRAINING,
} from '../../host/demo/demo-receipts.ts'
import { merkleRoot } from './merkle.ts'
import { tensorBytes } from './tensor-bytes.ts'
import { firstDivergence, traceRecorder } from './trace.ts'
import { type TraceEntry } from '../../core/protocol/inputs-file.ts'
import { generateOptions, trainConfig } from './work-params.ts'

const { config, params } = DEMO_MODEL

function forwardTrace(weights: Params): TraceEntry[] {
  const recorder = traceRecorder()
  forward(
    config,
    weights,
    { ids: DEMO_PROMPT, batch: 1, seqLen: DEMO_PROMPT.length },
    undefined,
    recorder.hook,
  )
  return recorder.entries
}

function trainTrace(weights: Params): TraceEntry[] {
  const recorder = traceRecorder()
  trainStep(
    config,
    initTrainState(config, weights),
    DEMO_BATCH,
    DEMO_TARGETS,
    trainConfig(DEMO_TRAINING),
    recorder.hook,
  )
  return recorder.entries
}

function generationTrace(weights: Params): TraceEntry[] {
  const recorder = traceRecorder()
  generate(config, weights, DEMO_PROMPT, generateOptions(DEMO_GENERATION, DEMO_SEED), recorder.hook)
  return recorder.entries
}

/** A copy of the weights with one bit of one element flipped. */
function flipBit(name: string, index: number, bit: number): Params {
  const copy: Params = new Map([...params].map(([n, t]) => [n, qtensor(t.shape, t.exp, t.data.slice())]))
  copy.get(name)!.data[index]! ^= 1 << bit
  return copy
}

describe('tensor bytes', () => {
  it('are tag, rank, little-endian dimensions, exponent and data', () => {
    const bytes = tensorBytes(qtensor([1, 2], -3, Int32Array.of(1, -2)))
    expect(Array.from(bytes)).toEqual([
      0, 2, 1, 0, 0, 0, 2, 0, 0, 0, 253, 255, 255, 255, 1, 0, 0, 0, 254, 255, 255, 255,
    ])
  })
})

describe('merkle root', () => {
  const leaf = (x: number) => sha256(concatBytes(Uint8Array.of(0), Uint8Array.of(x)))
  const node = (a: Uint8Array, b: Uint8Array) => sha256(concatBytes(Uint8Array.of(1), a, b))
  it('hashes leaves and nodes apart and promotes an odd last hash', () => {
    const data = [1, 2, 3].map((x) => Uint8Array.of(x))
    expect(merkleRoot(data.slice(0, 1))).toEqual(leaf(1))
    expect(merkleRoot(data)).toEqual(node(node(leaf(1), leaf(2)), leaf(3)))
    expect(merkleRoot([])).toEqual(sha256(new Uint8Array(0)))
    // duplicating the odd leaf (Bitcoin's rule) would give [1,2,3] and [1,2,3,3] one root
    expect(merkleRoot([...data, data[2]!])).not.toEqual(merkleRoot(data))
  })
})

describe('traces of the model', () => {
  it('are the same for the same inputs, and tracing changes no output', () => {
    expect(forwardTrace(params)).toEqual(forwardTrace(params))
    expect(generationTrace(params)).toEqual(generationTrace(params))
    const plain = forward(config, params, { ids: DEMO_PROMPT, batch: 1, seqLen: DEMO_PROMPT.length })
    const recorder = traceRecorder()
    const traced = forward(
      config,
      params,
      { ids: DEMO_PROMPT, batch: 1, seqLen: DEMO_PROMPT.length },
      undefined,
      recorder.hook,
    )
    expect(traced.logits).toEqual(plain.logits)
    expect(recorder.entries.at(-1)!.op).toBe('lm_head')
  })

  it('name each op once per pass, in execution order', () => {
    const ops = forwardTrace(params).map((e) => e.op)
    expect(ops.slice(0, 5)).toEqual([
      'embed',
      'embed.requantize',
      'layers.0.input_layernorm',
      'layers.0.self_attn.q_proj',
      'layers.0.q_rope',
    ])
    expect(new Set(ops).size).toBe(ops.length)
    const generation = generationTrace(params).map((e) => e.op)
    expect(generation.filter((op) => op.endsWith('/sample'))).toEqual(
      Array.from({ length: DEMO_GENERATION.maxNewTokens }, (_, i) => `token${i}/sample`),
    )
  })

  it('point at the op that first reads a changed weight bit', () => {
    const cases: [string, (w: Params) => TraceEntry[], string][] = [
      ['model.embed_tokens.weight', forwardTrace, 'embed'],
      ['model.layers.1.mlp.up_proj.weight', forwardTrace, 'layers.1.mlp.up_proj'],
      ['model.layers.0.self_attn.v_proj.weight', generationTrace, 'token0/layers.0.self_attn.v_proj'],
      ['model.layers.1.self_attn.k_proj.weight', trainTrace, 'forward/layers.1.self_attn.k_proj'],
    ]
    const base = new Map<(w: Params) => TraceEntry[], TraceEntry[]>()
    for (const [name, run, op] of cases) {
      if (!base.has(run)) base.set(run, run(params))
      // bit 18 of a 2^-24 weight is 2^-6: large enough to survive narrowing to int16 mantissas
      const divergence = firstDivergence(base.get(run)!, run(flipBit(name, 3 * 32 + 1, 18)))
      expect(divergence?.op, name).toBe(op)
    }
  })

  it('of a training step end with the optimizer update of every parameter', () => {
    const ops = trainTrace(params).map((e) => e.op)
    expect(ops.indexOf('loss')).toBeGreaterThan(0)
    expect(ops.at(-1)).toBe('adam.model.norm.weight.r')
  })
})
