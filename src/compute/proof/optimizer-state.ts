import type { AdamState } from '../kernels/ref/adam.ts'
import type { ModelConfig } from '../model/config.ts'
import { parameterLayout } from '../model/layout.ts'
import { sha256Hex } from '../../core/protocol/digest.ts'
import { readTensor, tensorBytes } from './tensor-bytes.ts'

/**
 * Adam state as bytes, for a training step's inputs and outputs: per parameter in layout order,
 * u32le step · tensorBytes(m) · tensorBytes(r). A training step reads it as much as the weights, so
 * its hash is part of the step's canonical inputs and outputs.
 */
export function optimizerBytes(config: ModelConfig, optimizer: ReadonlyMap<string, AdamState>): Uint8Array {
  const parts: Uint8Array[] = []
  for (const { name } of parameterLayout(config)) {
    const state = optimizer.get(name)
    if (!state) throw new RangeError(`optimizer state for ${name} is missing`)
    const step = new Uint8Array(4)
    new DataView(step.buffer).setUint32(0, state.step, true)
    parts.push(step, tensorBytes(state.m), tensorBytes(state.r))
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

export function optimizerHash(config: ModelConfig, optimizer: ReadonlyMap<string, AdamState>): string {
  return sha256Hex(optimizerBytes(config, optimizer))
}

export function readOptimizer(config: ModelConfig, bytes: Uint8Array): Map<string, AdamState> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const optimizer = new Map<string, AdamState>()
  let at = 0
  for (const { name, shape } of parameterLayout(config)) {
    const step = view.getUint32(at, true)
    const m = readTensor(bytes, at + 4)
    const r = readTensor(bytes, m.next)
    if ([m.tensor, r.tensor].some((t) => t.shape.join() !== shape.join()))
      throw new RangeError(`optimizer state for ${name} is not [${shape.join(', ')}]`)
    optimizer.set(name, { step, m: m.tensor, r: r.tensor })
    at = r.next
  }
  if (at !== bytes.length) throw new RangeError('optimizer state has trailing bytes')
  return optimizer
}
